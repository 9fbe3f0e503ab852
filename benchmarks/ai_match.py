"""Seeded matches between two players: ``python benchmarks/ai_match.py A B``.

Players: ``random``, ``greedy`` (see triangles.ai.baselines), the engine
levels ``easy``, ``medium``, ``hard`` (or a variant such as
``hard:width=16``), and ``mcts``, the independent UCT player of
:mod:`mcts` (``mcts:playouts=2000``; also ``c``, ``widen``, ``eps``,
``margin``), which never imports the engine; and ``A>B``, a player that moves as A
in every position where some line is safe (neither scores nor gives) and as B in
the others, to see which phase a result comes from (``hard>mcts``; the choice is
made anew each move, not latched).  Game g uses board seed ``seed + g//2``
and the two games on a board swap who starts, so every board is played from
both sides.  Prints wins/draws/losses of A, A's score (draw = half) with a
Wilson 95% interval, split by who started and by who drew the game's last
line, and per-move timing with the share of it each player had a core for;
``--games-out FILE`` writes every game (board seed, sides, margin, lines) as
JSON lines.  Runs games in ``--procs`` processes: keep them no more than the
free cores (two matches at once on 2 cores: ``--procs 1`` each), else the moves
wait for a core, their times inflate and hard's wall-clock cap fires more often
than in play; the report warns when that happened.  hard and medium sample the
safe lines on two threads (``api.SAMPLE_THREADS``), so two matches at once share
the cores while they sample; their moves are the same (counted budgets) unless a
cap fires, only the times of those moves are longer than alone.

    python benchmarks/ai_match.py hard greedy --preset phone --stars 24 --games 200 --extra-turn
    python benchmarks/ai_match.py hard mcts --stars 24 --games 200
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing as mp
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))  # this checkout's game first

from triangles.ai import LEVELS, Level, choose_move
from triangles.ai.levels import get_level
from triangles.rules import Game, Move

sys.path.insert(0, str(Path(__file__).resolve().parent))  # mcts.py, next to this file

BASELINES = ("random", "greedy", "mcts")
#: below this share of CPU time over wall time, a player's moves were starved of a core: two
#: matches of ``--procs 2`` at once on 2 cores doubled hard's move times (benchmarks/middle-game.md)
STARVED = 0.8
#: ... judged only over at least this many seconds of moves (a baseline's few milliseconds are noise)
STARVED_MIN_SECONDS = 1.0

#: ``mcts:`` options and the keyword of :class:`mcts.MCTSPlayer` each sets.
MCTS_OPTIONS = {
    "playouts": "playouts",
    "c": "c_uct",
    "widen": "widen",
    "eps": "eps",
    "margin": "margin",
    "expand": "expand",
}


def wilson(p_hat: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    d = 1 + z * z / n
    c = (p_hat + z * z / (2 * n)) / d
    h = z * math.sqrt(p_hat * (1 - p_hat) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def variant(spec: str) -> Level:
    """An experimental level such as ``hard:safe_mc=0,width=16``: a built-in level
    with some of its parameters replaced (for tuning runs), named ``spec``; a plain
    name (``hard``) gives that level unchanged.  Built with :func:`dataclasses.replace`;
    the global ``LEVELS`` is left alone."""
    base, _, changes = spec.partition(":")
    try:
        lv = get_level(base)
    except ValueError as exc:
        raise ValueError(f"{spec!r}: {exc}") from None
    fields = {f.name for f in dataclasses.fields(lv)} - {"name"}
    kw: dict[str, Any] = {}
    for item in filter(None, changes.split(",")):
        key, _, val = item.partition("=")
        if key not in fields:
            raise ValueError(f"{spec!r}: {key!r} is not a level parameter ({', '.join(sorted(fields))})")
        try:
            kw[key] = type(getattr(lv, key))(float(val) if "." in val else int(val))
        except ValueError:
            raise ValueError(f"{spec!r}: {key} needs a number, got {val!r}") from None
    return dataclasses.replace(lv, name=spec, **kw)


def engine_level(name: str) -> Level:
    """The level a player name stands for: a built-in level or a variant (ValueError otherwise)."""
    if ":" in name:
        return variant(name)
    if name not in LEVELS:
        raise ValueError(
            f"unknown player {name!r}: choose {', '.join(BASELINES)}, {', '.join(LEVELS)} "
            "or a variant such as hard:work=20000000"
        )
    return get_level(name)


def mcts_player(spec: str, seed: int) -> Callable[[Game], Move]:
    """``mcts`` or ``mcts:playouts=N,c=X,...``: the independent UCT player (ValueError for a bad option)."""
    from mcts import MCTSPlayer

    _, _, changes = spec.partition(":")
    playouts: int | None = None
    options: dict[str, float] = {}
    for item in filter(None, changes.split(",")):
        key, _, val = item.partition("=")
        if key not in MCTS_OPTIONS:
            raise ValueError(f"{spec!r}: {key!r} is not an mcts option ({', '.join(MCTS_OPTIONS)})")
        try:
            num = float(val)
        except ValueError:
            raise ValueError(f"{spec!r}: {key} needs a number, got {val!r}") from None
        if key == "playouts":
            if num < 1 or num != int(num):
                raise ValueError(f"{spec!r}: playouts must be a whole number >= 1")
            playouts = int(num)
        else:
            options[MCTS_OPTIONS[key]] = num
    return MCTSPlayer(seed, playouts, **options)


def make_player(name: str, seed: int) -> Callable[[Game], Move]:
    import numpy as np

    from triangles.ai.baselines import greedy_move, random_move

    if ">" in name:
        return phase_player(name, seed)
    if name == "mcts" or name.startswith("mcts:"):
        return mcts_player(name, seed)
    rng = np.random.default_rng(seed)
    if name == "random":
        return lambda g: random_move(g, rng)
    if name == "greedy":
        return lambda g: greedy_move(g, rng)
    level = engine_level(name)
    counter = 0

    def engine(g: Game) -> Move:
        nonlocal counter
        counter += 1
        return choose_move(g, level, seed=seed * 1000 + counter)

    return engine


def phase_player(name: str, seed: int) -> Callable[[Game], Move]:
    """``A>B``: A's move in a position where a safe line exists, B's where none does
    (each with the same seed as when it plays alone, and its own move count)."""
    from triangles.ai.baselines import move_table

    first, _, then = name.partition(">")
    if not first or not then:
        raise ValueError(f"{name!r}: a phase player is A>B, with a player on each side")
    pa = make_player(first, seed)
    pb = make_player(then, seed)

    def hybrid(g: Game) -> Move:
        _, closes, gives = move_table(g.board.arrays, g.arrays())
        return (pa if bool(((closes == 0) & (gives == 0)).any()) else pb)(g)

    return hybrid


def _warm(names: tuple[str, ...] = ()) -> None:
    """Load the search kernels in each worker before any move is timed (a warm
    numba cache still costs a load per process: the UI does this at start-up)."""
    from triangles.ai import warm_up

    warm_up()
    _warm_mcts(names)


def _warm_mcts(names: tuple[str, ...]) -> None:
    parts = [part for n in names for part in n.split(">")]
    if any(n == "mcts" or n.startswith("mcts:") for n in parts):
        import mcts

        mcts.warm_up()


Job = tuple[str, str, str, int, bool, int, int]


def board_seed(seed: int, g: int) -> int:
    """The board of game ``g`` of a match from ``seed``: two games a board, sides swapped."""
    return seed + g // 2


def wdl(margins: Iterable[int]) -> tuple[int, int, int]:
    """Wins, draws and losses of the side whose margins these are."""
    d = list(margins)
    return sum(v > 0 for v in d), sum(v == 0 for v in d), sum(v < 0 for v in d)


def play_one(args: Job) -> tuple[int, int, bool, list[Move], list[float], list[float], float, float]:
    a, b, preset, stars, extra, seed, g = args
    from triangles.presets import get_preset

    board = get_preset(preset).make_board(stars, board_seed(seed, g))
    game = Game(board, extra_turn=extra)
    a_first = g % 2 == 0
    pa = make_player(a, 2 * (seed + g) + 1)
    pb = make_player(b, 2 * (seed + g) + 2)
    a_side = 0 if a_first else 1
    times: dict[str, list[float]] = {"a": [], "b": []}
    cpu = {"a": 0.0, "b": 0.0}  # the process's CPU seconds during each player's moves
    while not game.is_over():
        who = "a" if game.player == a_side else "b"
        t0, c0 = time.perf_counter(), time.process_time()
        move = (pa if who == "a" else pb)(game)
        times[who].append(time.perf_counter() - t0)
        cpu[who] += time.process_time() - c0
        game.play(*move)
    s = game.scores
    diff = s[a_side] - s[1 - a_side]
    a_last = game.lines[-1][1] == a_side  # who drew the game's last line
    return g, diff, a_last, game.moves, times["a"], times["b"], cpu["a"], cpu["b"]


@dataclasses.dataclass
class Result:
    """One match, from A's side: ``diffs[g]`` is A's margin in game g (even g: A moved first)."""

    a: str
    b: str
    preset: str
    stars: int
    extra_turn: bool
    diffs: dict[int, int]
    times_a: list[float]
    times_b: list[float]
    seconds: float
    cpu_a: float = 0.0  # CPU seconds A's moves took (against the wall-clock sum of times_a)
    cpu_b: float = 0.0
    a_last: dict[int, bool] = dataclasses.field(default_factory=dict)  # game g: A drew its last line
    moves: dict[int, list[Move]] = dataclasses.field(default_factory=dict)  # game g's lines, in order

    def write_games(self, path: Path, seed: int) -> None:
        """One JSON line a game (board seed, who started, A's margin, the lines) for later study."""
        import json

        with path.open("w", encoding="utf-8") as f:
            for g in sorted(self.diffs):
                row = {
                    "game": g,
                    "board": board_seed(seed, g),
                    "a_first": g % 2 == 0,
                    "a_margin": self.diffs[g],
                    "a_last": self.a_last.get(g),
                    "moves": [list(m) for m in self.moves.get(g, [])],
                }
                f.write(json.dumps(row) + "\n")

    @property
    def games(self) -> int:
        return len(self.diffs)

    def wdl(self, first: bool | None = None, last: bool | None = None) -> tuple[int, int, int]:
        """A's wins, draws, losses; only the games A started (or not) when ``first`` is given,
        only those where A drew the last line (or not) when ``last`` is given."""
        return wdl(
            v
            for g, v in self.diffs.items()
            if (first is None or (g % 2 == 0) == first) and (last is None or self.a_last.get(g) == last)
        )

    @property
    def score(self) -> float:
        w, d, _ = self.wdl()
        return (w + 0.5 * d) / max(self.games, 1)

    def report(self) -> str:
        import numpy as np

        w, d, lo_ = self.wdl()
        n = self.games
        lo, hi = wilson(self.score, n)
        rule = "extra turn" if self.extra_turn else "alternate"
        margin = sum(self.diffs.values()) / max(n, 1)
        lines = [
            f"{self.a} vs {self.b}: {self.preset} {self.stars} stars, {rule}, {n} games ({self.seconds:.0f} s)",
            f"  W/D/L {w}/{d}/{lo_}  score {100 * self.score:.1f}%  Wilson95 [{100 * lo:.1f}, {100 * hi:.1f}]  "
            f"mean margin {margin:+.2f}",
            "  {} moving first W/D/L {}/{}/{}, second {}/{}/{}".format(
                self.a, *self.wdl(first=True), *self.wdl(first=False)
            ),
        ]
        if self.a_last:
            lines.append(
                "  {} drawing the last line W/D/L {}/{}/{}, not {}/{}/{}".format(
                    self.a, *self.wdl(last=True), *self.wdl(last=False)
                )
            )
        starved = False
        for who, ts, cpu in ((self.a, self.times_a, self.cpu_a), (self.b, self.times_b, self.cpu_b)):
            if ts:
                wall = sum(ts)
                share = cpu / max(wall, 1e-9)
                starved = starved or (wall > STARVED_MIN_SECONDS and share < STARVED)
                lines.append(
                    f"  {who}: per move mean {1000 * np.mean(ts):.1f} ms, median {1000 * np.median(ts):.1f} ms, "
                    f"p95 {1000 * np.percentile(ts, 95):.1f} ms, max {1000 * max(ts):.1f} ms, "
                    f"CPU {100 * share:.0f}% of that time"
                )
        if starved:
            lines.append(
                "  warning: the moves got less than a whole core (more processes than cores?): their times are "
                "inflated, and a level's wall-clock cap (Level.time_limit) may cut moves short more often than in play"
            )
        return "\n".join(lines)


def run(
    a: str,
    b: str,
    *,
    preset: str = "phone",
    stars: int = 24,
    extra_turn: bool = False,
    games: int = 200,
    seed: int = 0,
    procs: int = 2,
) -> Result:
    """Play the match (player names are checked by the caller: see :func:`make_player`)."""
    _warm_mcts((a, b))  # compile it once here: workers compiling it at once can race on numba's cache
    jobs: list[Job] = [(a, b, preset, stars, extra_turn, seed, g) for g in range(games)]
    t0 = time.time()
    diffs: dict[int, int] = {}
    last: dict[int, bool] = {}
    lines: dict[int, list[Move]] = {}
    ta: list[float] = []
    tb: list[float] = []
    ca = cb = 0.0
    with mp.get_context("spawn").Pool(procs, initializer=_warm, initargs=((a, b),)) as pool:
        for g, diff, a_last, moves, xa, xb, ya, yb in pool.imap_unordered(play_one, jobs):
            diffs[g] = diff
            last[g] = a_last
            lines[g] = moves
            ta += xa
            tb += xb
            ca += ya
            cb += yb
    return Result(a, b, preset, stars, extra_turn, diffs, ta, tb, time.time() - t0, ca, cb, last, lines)


def match_arguments(description: str, *, stars: int = 24, games: int = 200) -> argparse.ArgumentParser:
    """The command line of a match between players ``a`` and ``b`` (shared by the match scripts)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--preset", default="phone")
    ap.add_argument("--stars", type=int, default=stars)
    ap.add_argument("--extra-turn", action="store_true")
    ap.add_argument("--games", type=int, default=games)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", type=int, default=2)
    return ap


def check_players(ap: argparse.ArgumentParser, *names: str) -> None:
    """A bad player name fails here, with the parser's message, not in every worker."""
    for name in names:
        try:
            make_player(name, 0)
        except ValueError as exc:
            ap.error(str(exc))


def main(argv: Sequence[str] | None = None) -> int:
    ap = match_arguments(__doc__.splitlines()[0])
    ap.add_argument("--games-out", type=Path, help="write every game (board, sides, margin, lines) as JSON lines")
    args = ap.parse_args(argv)
    check_players(ap, args.a, args.b)
    result = run(
        args.a,
        args.b,
        preset=args.preset,
        stars=args.stars,
        extra_turn=args.extra_turn,
        games=args.games,
        seed=args.seed,
        procs=args.procs,
    )
    print(result.report(), flush=True)
    if args.games_out:
        try:
            result.write_games(args.games_out, args.seed)
        except OSError as e:
            print(f"could not write {args.games_out}: {e.strerror or e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
