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
from triangles.players import LEVEL_NAMES, PLAYER_KINDS, Player
from triangles.rules import Board, Game, IllegalMove

__all__ = ["FORMAT", "VERSION", "GameRecord", "RecordError", "load_record", "save_record", "parse_record"]

FORMAT = "triangles-record"
VERSION = 1

#: how the rules' reasons read in a message
REASON_TEXT = {
    "same_star": "joins a star to itself",
    "exists": "the line is already drawn",
    "through_star": "the line passes through a star",
    "crosses": "the line crosses a drawn line",
    "game_over": "the game was already over",
}


class RecordError(ValueError):
    """A record that cannot be used; ``str()`` is one line for the player."""


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
        except ValueError as exc:
            raise RecordError(f"stars: {exc}") from None

    def replay(self, upto: int | None = None) -> Game:
        """The game after the first ``upto`` moves (all by default); RecordError on a bad move."""
        game = Game(self.board(), self.extra_turn)
        moves = self.moves if upto is None else self.moves[:upto]
        for number, (i, j) in enumerate(moves, start=1):
            try:
                game.play(i, j)
            except IllegalMove as exc:
                text = REASON_TEXT.get(exc.reason, exc.reason)
                raise RecordError(f"move {number} ({i}-{j}) is illegal: {text} [{exc.reason}]") from None
            except ValueError as exc:
                raise RecordError(f"move {number} ({i}-{j}): {exc}") from None
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
        raise RecordError("the record must be a JSON object")
    if data.get("format") != FORMAT:
        raise RecordError(f"format: expected {FORMAT!r}, got {data.get('format')!r}")
    version = data.get("version")
    if not _is_int(version):
        raise RecordError("version: missing or not a whole number")
    if version != VERSION:
        raise RecordError(f"version: this game reads version {VERSION}, the record is version {version}")

    stars = data.get("stars")
    if not isinstance(stars, list):
        raise RecordError("stars: missing or not a list")
    for k, s in enumerate(stars):
        if not (isinstance(s, list) and len(s) == 2 and all(_is_number(v) for v in s)):
            raise RecordError(f"stars[{k}]: must be [x, y] with two finite numbers")

    tol = data.get("tolerance")
    if not _is_number(tol) or tol < 0:
        raise RecordError("tolerance: missing or not a number >= 0")

    options = data.get("options", {})
    if not isinstance(options, dict):
        raise RecordError("options: must be an object")
    extra = options.get("extra_turn", False)
    if not isinstance(extra, bool):
        raise RecordError("options.extra_turn: must be true or false")

    players_raw = data.get("players")
    if players_raw is None:
        players = default_players()
    else:
        if not isinstance(players_raw, list) or len(players_raw) != 2:
            raise RecordError("players: must be a list of two players")
        plist = []
        for k, p in enumerate(players_raw):
            if not isinstance(p, dict):
                raise RecordError(f"players[{k}]: must be an object")
            name = p.get("name")
            if not isinstance(name, str) or not name.strip() or len(name) > 64:
                raise RecordError(f"players[{k}].name: must be a non-empty string of at most 64 characters")
            kind = p.get("kind", "human")
            if kind not in PLAYER_KINDS:
                raise RecordError(f"players[{k}].kind: must be one of {', '.join(PLAYER_KINDS)}")
            level = p.get("level")
            if level is not None and level not in LEVEL_NAMES:
                raise RecordError(f"players[{k}].level: must be one of {', '.join(LEVEL_NAMES)} or null")
            plist.append(Player(name, kind, level))
        players = (plist[0], plist[1])

    preset = data.get("preset")
    if preset is not None and not isinstance(preset, str):
        raise RecordError("preset: must be a string or null")
    seed = data.get("seed")
    if seed is not None and (not _is_int(seed) or seed < 0):
        raise RecordError("seed: must be a whole number >= 0 or null")
    created = data.get("created")
    if created is not None and not isinstance(created, str):
        raise RecordError("created: must be a string or null")

    moves = data.get("moves")
    if not isinstance(moves, list):
        raise RecordError("moves: missing or not a list")
    n = len(stars)
    for k, m in enumerate(moves, start=1):
        if not (isinstance(m, list) and len(m) == 2 and all(_is_int(v) for v in m)):
            raise RecordError(f"move {k}: must be [i, j] with two whole numbers")
        for v in m:
            if not 0 <= v < n:
                raise RecordError(f"move {k} ({m[0]}-{m[1]}): star {v} does not exist (the board has {n})")

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
        raise RecordError(f"not a JSON record: {exc.msg} at line {exc.lineno} column {exc.colno}") from None
    record = parse_record(data)
    record.replay()  # every move through the rules
    return record


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and fully check a record file; RecordError (one line, without the path) when it cannot be used."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise RecordError("no such file") from None
    except IsADirectoryError:
        raise RecordError("is a folder, not a record") from None
    except OSError as exc:
        raise RecordError(f"cannot be read ({exc.strerror or exc})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("not a JSON record (not UTF-8 text)") from None
    return read_record_text(text)


def save_record(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write atomically (temporary file, then rename), so a crash never leaves half a record."""
    write_text_atomic(path, record.to_json())
