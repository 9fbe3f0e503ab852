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
from pathlib import Path
from typing import Any, TypeGuard

from triangles.files import write_text_atomic
from triangles.i18n import tr, trn
from triangles.players import LEVEL_NAMES, PLAYER_KINDS, Player
from triangles.rules import Board, Game, IllegalMove

__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordError", "load_record", "save_record", "parse_record"]

FORMAT = "triangles-record"
VERSION = 1


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

    # -- to and from games ---------------------------------------------------

    @classmethod
    def from_game(
        cls,
        game: Game,
        players: tuple[Player, Player] | None = None,
        preset: str | None = None,
        seed: int | None = None,
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
    seen: dict[tuple[float, float], int] = {}
    for k, s in enumerate(stars):
        if not (isinstance(s, list) and len(s) == 2 and all(_is_number(v) for v in s)):
            raise RecordError(tr("record.star_bad", k=k))
        first = seen.setdefault((float(s[0]), float(s[1])), k)
        if first != k:
            raise RecordError(tr("record.same_place", a=first, b=k))

    tol = data.get("tolerance")
    if not _is_number(tol) or tol < 0:
        raise RecordError(tr("record.tolerance"))

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
    if seed is not None and (not _is_int(seed) or seed < 0):
        raise RecordError(tr("record.seed"))
    created = data.get("created")
    if created is not None and not isinstance(created, str):
        raise RecordError(tr("record.created"))

    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError(tr("record.moves_missing"))
    n = len(stars)
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
    )


def read_record_text(text: str) -> GameRecord:
    """Parse and fully check a record, moves included."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(tr("record.json", line=exc.lineno, column=exc.colno)) from None
    record = parse_record(data)
    record.replay()  # every move through the rules
    return record


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and fully check a record file; RecordError (one line, without the path) when it cannot be used."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise RecordError(tr("record.no_file")) from None
    except IsADirectoryError:
        raise RecordError(tr("record.folder")) from None
    except OSError as exc:
        raise RecordError(tr("record.unreadable", reason=exc.strerror or type(exc).__name__)) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(tr("record.not_text")) from None
    return read_record_text(text)


def save_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write atomically (temporary file, then rename), so a crash never leaves half a record."""
    write_text_atomic(path, record.to_json())
