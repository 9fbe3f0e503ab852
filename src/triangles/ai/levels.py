"""The computer's levels as data: one engine, a parameter set per level.

A tuning variant is a :class:`Level` built with :func:`dataclasses.replace`
and handed to ``choose_move`` directly; the :data:`LEVELS` table itself is
read-only.

>>> import dataclasses
>>> deeper = dataclasses.replace(LEVELS["hard"], work=20_000_000)
>>> deeper.work, LEVELS["hard"].work
(20000000, 10000000)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from triangles.players import LEVEL_NAMES, LevelName

__all__ = ["Level", "LEVELS", "get_level"]


@dataclass(frozen=True, kw_only=True)
class Level:
    """How one level searches.  Budgets are deterministic (counted, not timed), so a seed
    gives a reproducible move; ``time_limit`` is only a safety cap."""

    #: shown in ``last_info().level`` (a variant may carry its own label)
    name: str
    #: candidate lines per interior node
    width: int
    #: candidate lines at the root
    root_width: int
    #: iterative deepening stops after this depth
    max_depth: int
    #: plies of scoring-line quiescence below the horizon
    qdepth: int
    #: leaf noise amplitude, in triangles (what makes a level beatable)
    noise: float
    #: the search budget in work units: nodes x the cost of a node on this board and position
    #: (about 2 per legal line, 1 per two stars; one unit is about 0.025 us on this machine)
    work: int
    #: default wall-clock safety cap, seconds
    time_limit: float
    #: transposition-table entries, as a power of two
    tt_bits: int
    #: prove the result (win / draw / loss) when at most this many legal lines remain
    #: (twice as many with the extra-turn rule, where it is far cheaper); 0 = never
    solve_legal: int = 0
    #: node budget of that proof (300k nodes: 0.3-0.6 s on 24 stars, by the machine's load)
    solve_nodes: int = 0
    #: > 0: the proof also stops after this much work, in the units of ``work`` (counting a
    #: proof's node as a search node, which overstates it; the proof must leave the search
    #: its share of the time cap)
    solve_work: int = 0
    #: first prove the result over the position's regions (``solver.decide_regions``) when at
    #: most this many legal lines remain; 0 = never.  Late in a game the board falls apart
    #: into small independent regions, and there this proves far more than ``solve_legal``
    region_legal: int = 0
    #: the same under the extra-turn rule, where the regions' sum is far cheaper to search
    #: (at most ``regions.MAX_LINES``)
    region_legal_extra: int = 0
    #: region states that proof may explore (about 10-20 us each)
    region_states: int = 0
    #: nodes its search over the sum of the regions may use (about 0.3-0.5 us each)
    region_nodes: int = 0
    #: > 0: while safe lines remain, their futures are sampled (randomly ranked safe lines by
    #: both sides, then the give-phase model's playout) by sequential halving, up to this many
    #: rounds a stage; the line they value best is searched first at the root, so it wins
    #: the search's ties, or played outright (``safe_trust``; see ``api.safe_choice``)
    safe_mc: int = 0
    #: the work those samples may use, in the units of ``work``
    safe_mc_work: int = 0
    #: openings each give-phase step of a sample follows through their cascades
    #: (``phase.give_estimate``'s ``cand``): fewer is cheaper, so more samples fit
    safe_cand: int = 8
    #: with strict alternation, play the sampled safe line outright when nothing can be
    #: taken, instead of letting the search overrule it (its horizon values the give phase
    #: by material only, and on 12-star positions its value there does not even correlate
    #: with the exact one); with the extra turn the search still decides (measured better)
    safe_trust: bool = False
    #: > 0: where too many safe lines remain for every one to get its samples (the
    #: opening), sample a seeded random subset of as many as fit, if at least this many
    #: (alternation only; hard vs ``mcts``, 24 stars: 74.5 % over 440 games where hard
    #: without it scored 68.2 % on the same boards, better on 9 of 11 seeds)
    safe_subset: int = 0
    #: with strict alternation, on boards of at most this many stars, choose only among the
    #: safe lines that set the board's thin faces so that the mover draws the game's last
    #: line (``ai.faces``); 0 = never.  hard vs ``mcts`` on 24 stars: 84.3 % over 440 games
    #: where hard without it scored 75.5 % on the same boards (85.6 % over 680 with 240
    #: more); on 60 stars 99.2 % over 60 games where it scored 90.0 %
    faces_stars: int = 0
    #: the chance that a move is a *lapse*: the simple rule's move (take the most, else a
    #: random line that gives least, safe lines first) instead of the search's.  A lapse
    #: never hands over more than it must at a glance, but it misses what the search sees
    #: a few lines ahead; spreading errors over some moves like this separates the levels
    #: better than leaf noise on every move (see the README's strength section)
    lapse: float = 0.0
    #: the same chance under the extra-turn rule, where a lapse costs more (a chain handed
    #: over is taken whole, and the simple rule takes every chain it is offered)
    lapse_extra: float = 0.0

    def __post_init__(self) -> None:
        for field in ("width", "root_width", "max_depth"):
            if getattr(self, field) < 1:
                raise ValueError(f"Level.{field} must be at least 1, got {getattr(self, field)}")
        for field in ("lapse", "lapse_extra"):
            if not 0.0 <= getattr(self, field) <= 1.0:
                raise ValueError(f"Level.{field} must be within 0..1, got {getattr(self, field)}")
        if not 4 <= self.tt_bits <= 30:
            raise ValueError(f"Level.tt_bits must be within 4..30, got {self.tt_bits}")


#: The levels are spaced so that each wins about two games in three or more
#: against the one below (measured with benchmarks/ai_match.py, see the
#: README).  Leaf noise of about one triangle is what makes easy beatable: it
#: now and then prefers a line that gives a triangle away.  medium searches
#: without noise and samples the safe lines as hard does, but seven moves in ten
#: are lapses (the simple rule's move; three in ten with the extra turn, where a
#: lapse costs more): noise on every leaf traded beating greedy against losing to
#: hard, lapses do far less so.  hard has no noise or lapses,
#: searches deepest and plays for a proved win (or draw) once the board has fallen
#: apart into small regions (up to 48 legal lines, 64 with the extra turn; on 24
#: stars most positions of 40 lines are proved) or, failing that, in the last ~24
#: lines on 24 stars (fewer on larger boards, where a node costs more); before that, while
#: safe lines remain and nothing can be taken, it plays the safe line whose sampled
#: futures end best (with the extra turn it searches that line first): the search
#: alone sees every safe line as equal.  With alternation, on boards of up to
#: ``faces_stars`` stars, it samples only the safe lines that set the board's thin
#: faces so that it draws the game's last line (``ai.faces``).
LEVELS: Mapping[LevelName, Level] = MappingProxyType(
    {
        "easy": Level(
            name="easy",
            width=4,
            root_width=10,
            max_depth=1,
            qdepth=2,
            noise=1.05,
            work=60_000,
            time_limit=0.04,
            tt_bits=18,
        ),
        "medium": Level(
            name="medium",
            width=8,
            root_width=20,
            max_depth=2,
            qdepth=4,
            noise=0.0,
            work=1_500_000,
            time_limit=0.5,
            tt_bits=20,
            safe_mc=16,
            safe_mc_work=3_000_000,
            safe_trust=True,
            lapse=0.7,
            lapse_extra=0.3,
        ),
        "hard": Level(
            name="hard",
            width=12,
            root_width=32,
            max_depth=16,
            qdepth=8,
            noise=0.0,
            work=10_000_000,
            time_limit=1.2,
            tt_bits=20,
            solve_legal=24,
            solve_nodes=300_000,
            solve_work=20_000_000,
            region_legal=48,
            region_legal_extra=64,
            region_states=20_000,
            region_nodes=900_000,
            safe_mc=16,
            safe_mc_work=10_000_000,
            safe_trust=True,
            safe_subset=6,
            faces_stars=60,
        ),
    }
)


def get_level(level: str | Level) -> Level:
    """The :class:`Level` itself, or the one named in :data:`LEVELS`; ValueError otherwise."""
    if isinstance(level, Level):
        return level
    for name in LEVEL_NAMES:
        if level == name:
            return LEVELS[name]
    raise ValueError(f"unknown level {level!r}; choose one of {', '.join(LEVEL_NAMES)} or pass a Level")
