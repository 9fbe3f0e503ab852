"""The game record: a versioned JSON document with everything needed to replay.

Like an SGT Puzzles save file or PGN: a format name and version first, then the
stars themselves (not only a seed, so a record survives changes to the
scatter), tolerance, options, players and the moves in order.  A record read
from disk is checked completely -- every field, then every move through the
rules -- before anything uses it; problems raise :class:`RecordError` with one
line naming the field or the move number and its reason.
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeGuard

from triangles.files import (
    BadJson,
    NoSuchFile,
    NotAFile,
    TooDeep,
    TooLarge,
    Unreadable,
    parse_json,
    read_limited,
    write_text_atomic,
)
from triangles.i18n import tr, trn
from triangles.players import LEVEL_NAMES, PLAYER_KINDS, Player
from triangles.rules import Board, Game, IllegalMove

__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordError", "load_record", "save_record", "parse_record"]

FORMAT = "triangles-record"
VERSION = 1

# Limits no real game reaches and no hostile file passes (checked before the rules see anything).
#: bytes: a finished 256-star game is about 0.5 MB
MAX_BYTES = 4_000_000
#: the record is an object of lists of pairs: 4 levels; a little room for later fields
MAX_DEPTH = 8
#: a little above the largest preset (180); a triangle needs 3
MIN_STARS, MAX_STARS = 3, 256
#: design points: boards are about 1200 wide
MAX_COORD = 100_000.0
#: design points: the rules use a few
MAX_TOLERANCE = 100.0
#: board numbers are 64-bit
MAX_SEED = 2**63 - 1


def reason_text(reason: str) -> str:
    """How one of the rules' reasons reads inside a sentence ("the line crosses a drawn line")."""
    return tr(f"record.reason.{reason}")


class RecordError(ValueError):
    """A record that cannot be used; ``str()`` is one line for the player, in the player's language."""


def default_players() -> tuple[Player, Player]:
    return Player("Player 1"), Player("Player 2")


@dataclass
class GameRecord:
    stars: list[tuple[float, float]]
    tolerance: float
    moves: list[tuple[int, int]]
    extra_turn: bool = False
    players: tuple[Player, Player] = field(default_factory=default_players)
    preset: str | None = None
    seed: int | None = None
    created: str | None = None
    #: stable id of the game (statistics count each once); None in records from before it existed
    game_id: str | None = None

    # -- to and from games ---------------------------------------------------

    @classmethod
    def from_game(
        cls,
        game: Game,
        players: tuple[Player, Player] | None = None,
        preset: str | None = None,
        seed: int | None = None,
        game_id: str | None = None,
    ) -> GameRecord:
        return cls(
            stars=[(float(x), float(y)) for x, y in game.board.stars],
            tolerance=game.board.tolerance,
            moves=list(game.moves),
            extra_turn=game.extra_turn,
            players=players or default_players(),
            preset=preset,
            seed=seed,
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            game_id=game_id,
        )

    def board(self) -> Board:
        try:
            return Board(self.stars, self.tolerance)
        except ValueError:
            raise RecordError(tr("record.board")) from None

    def replay(self, upto: int | None = None) -> Game:
        """The game after the first ``upto`` moves (all by default); RecordError on a bad move."""
        game = Game(self.board(), self.extra_turn)
        moves = self.moves if upto is None else self.moves[:upto]
        for number, (i, j) in enumerate(moves, start=1):
            try:
                game.play(i, j)
            except IllegalMove as exc:
                text = reason_text(exc.reason)
                raise RecordError(tr("record.move_illegal", number=number, i=i, j=j, reason=text)) from None
            except ValueError:
                raise RecordError(tr("record.move_bad", k=number)) from None
        return game

    # -- JSON ----------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "id": self.game_id,
            "created": self.created,
            "preset": self.preset,
            "seed": self.seed,
            "tolerance": self.tolerance,
            "options": {"extra_turn": self.extra_turn},
            "players": [p.to_dict() for p in self.players],
            "stars": [[x, y] for x, y in self.stars],
            "moves": [[i, j] for i, j in self.moves],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n"


# -- checking ------------------------------------------------------------------


def _is_number(v: object) -> TypeGuard[int | float]:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _is_int(v: object) -> TypeGuard[int]:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_record(data: object) -> GameRecord:
    """Check a decoded JSON document field by field and return the record (moves unchecked)."""
    if not isinstance(data, dict):
        raise RecordError(tr("record.format"))
    if data.get("format") != FORMAT:
        raise RecordError(tr("record.format"))
    version = data.get("version")
    if not _is_int(version):
        raise RecordError(tr("record.version_missing"))
    if version != VERSION:
        raise RecordError(tr("record.version", version=version, expected=VERSION))

    stars = data.get("stars")
    if not isinstance(stars, list):
        raise RecordError(tr("record.stars_missing"))
    if not MIN_STARS <= len(stars) <= MAX_STARS:
        raise RecordError(trn("record.star_count", len(stars), low=MIN_STARS, high=MAX_STARS))
    seen: dict[tuple[float, float], int] = {}
    for k, s in enumerate(stars):
        if not (isinstance(s, list) and len(s) == 2 and all(_is_number(v) for v in s)):
            raise RecordError(tr("record.star_bad", k=k))
        if not all(abs(v) <= MAX_COORD for v in s):
            raise RecordError(tr("record.star_far", k=k, limit=MAX_COORD))
        first = seen.setdefault((float(s[0]), float(s[1])), k)
        if first != k:
            raise RecordError(tr("record.same_place", a=first, b=k))

    tol = data.get("tolerance")
    if not _is_number(tol) or not 0 <= tol <= MAX_TOLERANCE:
        raise RecordError(tr("record.tolerance", limit=MAX_TOLERANCE))

    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError(tr("record.options"))
    extra = options.get("extra_turn", False)
    if not isinstance(extra, bool):
        raise RecordError(tr("record.options"))

    players_raw = data.get("players")
    if players_raw is None:
        players = default_players()
    else:
        if not isinstance(players_raw, list) or len(players_raw) != 2:
            raise RecordError(tr("record.players"))
        plist = []
        for k, p in enumerate(players_raw):
            if not isinstance(p, dict):
                raise RecordError(tr("record.player_bad", k=k + 1))
            name = p.get("name")
            if not isinstance(name, str) or not name.strip() or len(name) > 64:
                raise RecordError(tr("record.player_name", k=k + 1))
            kind = p.get("kind", "human")
            if kind not in PLAYER_KINDS:
                raise RecordError(tr("record.player_kind", k=k + 1))
            level = p.get("level")
            if level is not None and level not in LEVEL_NAMES:
                raise RecordError(tr("record.player_level", k=k + 1))
            plist.append(Player(name, kind, level))
        players = (plist[0], plist[1])

    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise RecordError(tr("record.preset"))
    seed = data.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise RecordError(tr("record.seed"))
    created = data.get("created")
    if created is not None and not isinstance(created, str):
        raise RecordError(tr("record.created"))
    game_id = data.get("id")  # absent from older records; one that is not a short text is ignored, like absent
    if not (isinstance(game_id, str) and 0 < len(game_id) <= 80):
        game_id = None

    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError(tr("record.moves_missing"))
    n = len(stars)
    if len(moves) > n * (n - 1) // 2:  # one move per possible line at most
        raise RecordError(tr("record.too_many_moves", count=len(moves), limit=n * (n - 1) // 2))
    for k, m in enumerate(moves, start=1):
        if not (isinstance(m, list) and len(m) == 2 and all(_is_int(v) for v in m)):
            raise RecordError(tr("record.move_bad", k=k))
        for v in m:
            if not 0 <= v < n:
                raise RecordError(trn("record.move_star", n, k=k, star=v))

    return GameRecord(
        stars=[(float(x), float(y)) for x, y in stars],
        tolerance=float(tol),
        moves=[(int(i), int(j)) for i, j in moves],
        extra_turn=extra,
        players=players,
        preset=preset,
        seed=seed,
        created=created,
        game_id=game_id,
    )


def read_record_text(text: str) -> GameRecord:
    """Parse and fully check a record, moves included."""
    try:
        data = parse_json(text, MAX_DEPTH)
    except BadJson as exc:
        raise RecordError(tr("record.json", line=exc.line, column=exc.column)) from None
    except TooDeep:
        raise RecordError(tr("record.too_deep")) from None
    record = parse_record(data)
    record.replay()  # every move through the rules
    return record


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and fully check a record file; RecordError (one line, without the path) when it cannot be used.

    Hostile files (a device, a folder, gigabytes, absurd nesting) are refused
    before they cost time or memory: see :data:`MAX_BYTES` and friends.
    """
    try:
        raw = read_limited(path, MAX_BYTES)
    except NoSuchFile:
        raise RecordError(tr("record.no_file")) from None
    except NotAFile as exc:
        raise RecordError(tr("record.folder" if exc.folder else "record.not_file")) from None
    except TooLarge:
        raise RecordError(tr("record.too_large", limit=MAX_BYTES // 1_000_000)) from None
    except Unreadable as exc:
        raise RecordError(tr("record.unreadable", reason=exc.reason)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RecordError(tr("record.not_text")) from None
    return read_record_text(text)


def save_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write atomically (temporary file, then rename), so a crash never leaves half a record."""
    write_text_atomic(path, record.to_json())
