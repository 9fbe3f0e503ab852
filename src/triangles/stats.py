"""Statistics: what the player's finished games add up to, kept on disk.

Against the computer the figures are kept per device preset, number of stars
and level (games, wins, losses, draws, current and best winning streak);
two-player (hotseat) games are counted apart: games, draws and wins per name.

Two decisions the screen's footnote states:

- A draw is neither a win nor a loss.  It leaves the win rate (wins ÷
  decided games, i.e. wins ÷ (wins + losses)) and the winning streak exactly
  as they were: it neither extends nor breaks a streak.
- Each game is counted once.  Every match has a stable ``game_id`` (kept in
  its record), and the ids already counted are kept here (the last
  :data:`MAX_COUNTED`), so review, undo past the end and replaying, or
  Continue never count a game twice.  A record that was already finished when
  it was opened never counts (its id is spent without any figures).

The file is ``user_data_dir()/statistics.json``, versioned and written
atomically; an unreadable one is moved aside (never deleted) and counting
starts fresh.  :class:`StatisticsBook` is the one object the window uses: it
never raises, and keeps each problem for the window to report once.  No pygame.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeGuard

from triangles.file_messages import file_problem_text
from triangles.files import FileProblem, NoSuchFile, move_aside, read_json, write_text_atomic
from triangles.i18n import tr
from triangles.paths import user_data_dir
from triangles.players import LEVEL_NAMES, LevelName

if TYPE_CHECKING:
    from triangles.match import Match

__all__ = [
    "FORMAT",
    "VERSION",
    "MAX_COUNTED",
    "Outcome",
    "Tally",
    "HotseatTally",
    "FinishedGame",
    "Statistics",
    "StatisticsError",
    "Problem",
    "StatisticsBook",
    "finished_game",
    "statistics_path",
    "load_statistics",
    "save_statistics",
]

FORMAT = "triangles-statistics"
VERSION = 1
#: how many counted game ids are remembered (older ones drop off first)
MAX_COUNTED = 1000

Outcome = Literal["win", "loss", "draw"]
#: (preset, stars, level)
AiKey = tuple[str, int, LevelName]


class StatisticsError(ValueError):
    """A statistics document that cannot be used (``str()`` names the field, for logs and tests)."""


@dataclass
class Tally:
    """One preset, star count and level against the computer."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    #: wins in a row up to now (a draw leaves it as it is, a loss ends it)
    streak: int = 0
    best_streak: int = 0

    def add(self, outcome: Outcome) -> None:
        self.games += 1
        if outcome == "win":
            self.wins += 1
            self.streak += 1
            self.best_streak = max(self.best_streak, self.streak)
        elif outcome == "loss":
            self.losses += 1
            self.streak = 0
        else:
            self.draws += 1  # neither a win nor a loss: the streak stays

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def win_rate(self) -> float | None:
        """Wins ÷ (wins + losses); None before any decided game (draws do not count either way)."""
        return self.wins / self.decided if self.decided else None

    def to_dict(self) -> dict[str, int]:
        return {
            "games": self.games,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "streak": self.streak,
            "best_streak": self.best_streak,
        }


@dataclass
class HotseatTally:
    """Two players at one machine: games, draws, and who won.

    A winner with the seat's default name ("Player 1", or its translation)
    is counted by seat, so a change of language does not split the figures;
    any other name is counted by name.
    """

    games: int = 0
    draws: int = 0
    seat_wins: list[int] = field(default_factory=lambda: [0, 0])
    wins_by_name: dict[str, int] = field(default_factory=dict)

    def add(self, winner: int | None, name: str | None) -> None:
        """``winner``: the seat (None for a draw); ``name``: its player's own name (None: the default)."""
        self.games += 1
        if winner is None:
            self.draws += 1
        elif name is None:
            self.seat_wins[winner] += 1
        else:
            self.wins_by_name[name] = self.wins_by_name.get(name, 0) + 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "draws": self.draws,
            "seat_wins": list(self.seat_wins),
            "wins_by_name": dict(self.wins_by_name),
        }


@dataclass(frozen=True)
class FinishedGame:
    """What one finished game adds to the statistics."""

    game_id: str
    mode: Literal["ai", "hotseat"]
    preset: str
    stars: int
    level: LevelName
    #: the human's result against the computer (None in hotseat)
    outcome: Outcome | None = None
    #: hotseat: the winning seat (None: a draw) and its name (None: the seat's default name)
    winner: int | None = None
    winner_name: str | None = None
    #: False for a record that was already finished when it was opened: its id is spent, nothing is added
    counts: bool = True


def _is_default_name(name: str, seat: int) -> bool:
    """The seat's default name: the record format's own ("Player 1") or the current language's."""
    defaults = ("Player 1", tr("player.one")) if seat == 0 else ("Player 2", tr("player.two"))
    return name.strip() in defaults


def finished_game(match: Match, preset: str) -> FinishedGame:
    """The statistics' view of a finished ``match`` (``preset``: its device preset, worked out by the caller).

    Not for a demo (:meth:`StatisticsBook.count` skips those): ValueError.
    """
    if match.mode == "demo":
        raise ValueError("a demo is not counted")
    game = match.game
    winner = game.winner()
    common: dict[str, Any] = {
        "game_id": match.game_id,
        "preset": preset,
        "stars": game.board.n,
        "level": match.level(),
        "counts": not match.finished_when_opened,
    }
    if match.mode == "ai":
        outcome: Outcome = "draw" if winner is None else "win" if winner == match.human_side else "loss"
        return FinishedGame(mode="ai", outcome=outcome, **common)
    name = None
    if winner is not None:
        own = match.players[winner].name
        name = None if _is_default_name(own, winner) else own.strip()
    return FinishedGame(mode="hotseat", winner=winner, winner_name=name, **common)


@dataclass
class Statistics:
    """Every figure, plus the ids of the games already counted."""

    #: (preset, stars, level) -> tally; the most recently played last
    ai: dict[AiKey, Tally] = field(default_factory=dict)
    hotseat: HotseatTally = field(default_factory=HotseatTally)
    #: game ids already counted, oldest first (at most MAX_COUNTED)
    counted: list[str] = field(default_factory=list)

    def tally(self, preset: str, stars: int, level: LevelName) -> Tally:
        """The figures for one selection (an empty tally when nothing was played there)."""
        return self.ai.get((preset, stars, level)) or Tally()

    def has_games(self, preset: str | None = None, stars: int | None = None) -> bool:
        """Any game against the computer (on ``preset``/``stars`` when given)?"""
        return any(
            t.games and (preset is None or k[0] == preset) and (stars is None or k[1] == stars)
            for k, t in self.ai.items()
        )

    @property
    def is_empty(self) -> bool:
        return not self.has_games() and not self.hotseat.games

    def last_played(self) -> tuple[str, int] | None:
        """Preset and stars of the most recent game against the computer."""
        for (preset, stars, _), t in reversed(self.ai.items()):
            if t.games:
                return preset, stars
        return None

    def add(self, game: FinishedGame) -> bool:
        """Count ``game`` unless its id was counted already; True when figures changed."""
        if game.game_id in self.counted:
            return False
        self.counted.append(game.game_id)
        del self.counted[:-MAX_COUNTED]
        if not game.counts:
            return False
        if game.mode == "ai":
            key = (game.preset, game.stars, game.level)
            tally = self.ai.pop(key, None) or Tally()
            tally.add(game.outcome or "draw")
            self.ai[key] = tally  # re-inserted: the last played comes last
        else:
            self.hotseat.add(game.winner, game.winner_name)
        return True

    def reset(self) -> None:
        """Clear every figure; the counted ids stay, so an old game replayed to its end still does not count."""
        self.ai.clear()
        self.hotseat = HotseatTally()

    # -- JSON ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "computer": [{"preset": p, "stars": n, "level": lv, **t.to_dict()} for (p, n, lv), t in self.ai.items()],
            "hotseat": self.hotseat.to_dict(),
            "counted": list(self.counted),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"

    @classmethod
    def from_dict(cls, data: object) -> Statistics:
        """Check a decoded document completely; StatisticsError naming the first bad field."""
        if not isinstance(data, dict):
            raise StatisticsError("not a JSON object")
        if data.get("format") != FORMAT:
            raise StatisticsError(f"format: expected {FORMAT!r}")
        if data.get("version") != VERSION:
            raise StatisticsError(f"version: this game reads version {VERSION}, got {data.get('version')!r}")
        stats = cls()
        rows = data.get("computer", [])
        if not isinstance(rows, list):
            raise StatisticsError("computer: not a list")
        for k, row in enumerate(rows):
            where = f"computer[{k}]"
            if not isinstance(row, dict):
                raise StatisticsError(f"{where}: not an object")
            preset, stars, level = row.get("preset"), row.get("stars"), row.get("level")
            if not isinstance(preset, str) or not preset:
                raise StatisticsError(f"{where}.preset: not a name")
            if not _count(stars) or stars < 1:
                raise StatisticsError(f"{where}.stars: not a whole number >= 1")
            if level not in LEVEL_NAMES:
                raise StatisticsError(f"{where}.level: not one of {', '.join(LEVEL_NAMES)}")
            fields = ("games", "wins", "losses", "draws", "streak", "best_streak")
            values: list[int] = []
            for f in fields:
                v = row.get(f)
                if not _count(v):
                    raise StatisticsError(f"{where}.{f}: not a whole number >= 0")
                values.append(v)
            t = Tally(*values)
            if t.wins + t.losses + t.draws != t.games:
                raise StatisticsError(f"{where}: wins, losses and draws do not add up to games")
            if not t.streak <= t.best_streak <= t.wins:
                raise StatisticsError(f"{where}: streaks do not fit the wins")
            key = (preset, stars, level)
            if key in stats.ai:
                raise StatisticsError(f"{where}: the same preset, stars and level twice")
            stats.ai[key] = t
        stats.hotseat = _hotseat_from(data.get("hotseat", {}))
        counted = data.get("counted", [])
        if not isinstance(counted, list) or not all(isinstance(c, str) and c for c in counted):
            raise StatisticsError("counted: not a list of game ids")
        stats.counted = list(dict.fromkeys(counted))[-MAX_COUNTED:]
        return stats


def _count(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _hotseat_from(data: object) -> HotseatTally:
    if not isinstance(data, dict):
        raise StatisticsError("hotseat: not an object")
    games, draws = data.get("games", 0), data.get("draws", 0)
    seats = data.get("seat_wins", [0, 0])
    names = data.get("wins_by_name", {})
    if not _count(games) or not _count(draws):
        raise StatisticsError("hotseat.games/draws: not whole numbers >= 0")
    if not (isinstance(seats, list) and len(seats) == 2 and all(_count(s) for s in seats)):
        raise StatisticsError("hotseat.seat_wins: not two whole numbers >= 0")
    if not (isinstance(names, dict) and all(isinstance(k, str) and k and _count(v) for k, v in names.items())):
        raise StatisticsError("hotseat.wins_by_name: not names with whole numbers >= 0")
    if draws + sum(seats) + sum(names.values()) != games:
        raise StatisticsError("hotseat: draws and wins do not add up to games")
    return HotseatTally(games, draws, list(seats), dict(names))


# -- the file --------------------------------------------------------------------------


def statistics_path() -> Path:
    return user_data_dir() / "statistics.json"


#: bytes: a year of daily play with many named players stays far below this
MAX_BYTES = 2_000_000


def load_statistics(path: Path) -> Statistics:
    """Read and check the file (a missing file is empty statistics); StatisticsError when unusable."""
    try:
        data = read_json(path, MAX_BYTES)
    except NoSuchFile:  # nothing counted yet (or no data folder at all)
        return Statistics()
    except FileProblem as exc:  # a folder, a device, huge, binary, damaged, nested 200 000 deep
        raise StatisticsError(file_problem_text(exc)) from None
    return Statistics.from_dict(data)


def save_statistics(stats: Statistics, path: Path) -> None:
    """Atomic write (temporary file, fsync, rename); OSError to the caller."""
    write_text_atomic(path, stats.to_json())


@dataclass(frozen=True)
class Problem:
    """Something the window should tell the player once.

    ``kind`` "unreadable": the file was kept aside as ``detail`` (a file name)
    and counting starts fresh; "write": the figures could not be saved
    (``detail``: the system's reason).
    """

    kind: Literal["unreadable", "write"]
    detail: str


class StatisticsBook:
    """The window's statistics: loaded on first use, saved after every change, never raising.

    Each kind of problem is handed out once by :meth:`take_problems`, so the
    window reports an unreadable file or a read-only folder a single time.
    """

    def __init__(self, path: Path | None = None) -> None:
        self._path = path
        self._stats: Statistics | None = None
        self._pending: list[Problem] = []
        self._reported: set[str] = set()
        #: False when an unreadable file could not be moved aside (it must not be overwritten)
        self._writable = True

    @property
    def path(self) -> Path:
        return self._path or statistics_path()

    @property
    def stats(self) -> Statistics:
        if self._stats is None:
            self._stats = self._load()
        return self._stats

    def _load(self) -> Statistics:
        path = self.path
        try:
            return load_statistics(path)
        except StatisticsError:
            kept = move_aside(path)
            if path.exists():
                self._writable = False  # could not be moved: keep it as it is, count in memory only
            self._problem(Problem("unreadable", kept.name if kept.exists() else path.name))
            return Statistics()

    def _problem(self, problem: Problem) -> None:
        if problem.kind not in self._reported:
            self._reported.add(problem.kind)
            self._pending.append(problem)

    def take_problems(self) -> list[Problem]:
        """Problems not yet reported (each kind once per book)."""
        out, self._pending = self._pending, []
        return out

    def save(self) -> bool:
        """Write the file; a failure is kept as a problem, never raised."""
        if not self._writable:
            return False
        try:
            save_statistics(self.stats, self.path)
        except OSError as exc:
            self._problem(Problem("write", exc.strerror or str(exc)))
            return False
        return True

    def count(self, match: Match, preset: str) -> bool:
        """Count a finished match once (by its game id); True when the figures changed.

        A demo (the computer against itself) is nobody's game: never counted, its id not even kept.
        """
        if not match.game.is_over() or match.mode == "demo":
            return False  # an abandoned or unfinished game is never counted
        stats = self.stats
        seen = match.game_id in stats.counted
        changed = stats.add(finished_game(match, preset))
        if not seen:
            self.save()  # the id is spent even when nothing was added (a reopened finished record)
        return changed

    def reset(self) -> None:
        self.stats.reset()
        self.save()
