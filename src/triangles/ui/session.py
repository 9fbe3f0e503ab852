"""The game in progress (:class:`Match`) and keeping it safe on disk.

Why one class: mouse clicks, keys, the computer, redo, replays and loaded
records must all change the position the same way, so there is exactly one
:meth:`Match.play` that calls ``Game.play``.  The match also owns the redo
stack and the *position token* the computer's answers are checked against.

The game in progress is written to ``user_data_dir()/current-game.json`` (an
atomic write through ``save_record``) after every change and when the window
closes, and offered as "Continue" at the next start.  A file that cannot be
read is moved aside (never deleted: the player's data is never lost) and the
reason is shown in the window.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from triangles.i18n import tr
from triangles.paths import user_data_dir
from triangles.record import GameRecord, RecordError, load_record, save_record
from triangles.rules import Board, Game, IllegalMove

__all__ = ["Match", "MatchSettings", "session_path", "games_dir", "save_session", "load_session",
           "clear_session", "has_session", "save_game_copy", "list_saved_games", "archive_session"]

Move = tuple[int, int]
Player = dict[str, Any]

#: position tokens are unique across matches, so an answer meant for an old
#: game can never be mistaken for one about a new game's first position
_tokens = itertools.count(1)


@dataclass
class MatchSettings:
    """What the New game dialog (or the command line) chose."""

    mode: str = "ai"            # "ai" | "hotseat"
    preset: str = "phone"
    stars: int | None = None     # None: the preset's default
    seed: int | None = None      # None: a fresh random board
    level: str = "medium"
    extra_turn: bool = False
    computer_starts: bool = False


def make_players(settings: MatchSettings) -> tuple[Player, Player]:
    if settings.mode == "hotseat":
        return ({"name": tr("player.one"), "kind": "human", "level": None},
                {"name": tr("player.two"), "kind": "human", "level": None})
    you: Player = {"name": tr("player.you"), "kind": "human", "level": None}
    cpu: Player = {"name": tr("player.computer"), "kind": "computer", "level": settings.level}
    return (cpu, you) if settings.computer_starts else (you, cpu)


class Match:
    """A game plus who plays it, its redo stack and its position token."""

    def __init__(self, game: Game, players: tuple[Player, Player], preset: str | None = None,
                 seed: int | None = None) -> None:
        self.game = game
        self.players = players
        self.preset = preset
        self.seed = seed
        self._redo: list[list[Move]] = []
        #: new on every change; the computer's answers carry the token they were asked for
        self.token = next(_tokens)

    # -- construction ------------------------------------------------------------

    @classmethod
    def new(cls, settings: MatchSettings) -> "Match":
        from triangles.presets import get_preset

        preset = get_preset(settings.preset)
        seed = settings.seed if settings.seed is not None else int(time.time_ns() % 1_000_000_007)
        board = preset.make_board(settings.stars, seed)
        return cls(Game(board, settings.extra_turn), make_players(settings), preset.name, seed)

    @classmethod
    def from_record(cls, record: GameRecord) -> "Match":
        """The position after all the record's moves; RecordError when it does not replay.

        The moves go through :meth:`play` like every other move.
        """
        players = (dict(record.players[0]), dict(record.players[1]))
        match = cls(Game(record.board(), record.extra_turn), players, record.preset, record.seed)  # type: ignore[arg-type]
        for number, (i, j) in enumerate(record.moves, start=1):
            try:
                match.play(i, j)
            except IllegalMove as exc:
                raise RecordError(f"move {number} ({i}-{j}) is illegal: {exc.reason}") from None
            except ValueError as exc:
                raise RecordError(f"move {number} ({i}-{j}): {exc}") from None
        return match

    def rematch(self) -> "Match":
        """Same board, same players and options, empty."""
        return Match(Game(self.game.board, self.game.extra_turn), self.players, self.preset, self.seed)

    def to_record(self) -> GameRecord:
        return GameRecord.from_game(self.game, players=self.players, preset=self.preset, seed=self.seed)

    # -- who is who ---------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def mode(self) -> str:
        return "ai" if any(p.get("kind") == "computer" for p in self.players) else "hotseat"

    def is_computer(self, player: int) -> bool:
        return self.players[player].get("kind") == "computer"

    @property
    def computer_to_move(self) -> bool:
        return not self.game.is_over() and self.is_computer(self.game.player)

    @property
    def human_side(self) -> int | None:
        """Against the computer: the human's player index."""
        for k, p in enumerate(self.players):
            if p.get("kind") == "human" and self.mode == "ai":
                return k
        return None

    def level(self) -> str:
        for p in self.players:
            if p.get("kind") == "computer":
                return str(p.get("level") or "medium")
        return "medium"

    # -- the one path for moves ---------------------------------------------------

    def play(self, i: int, j: int, *, keep_redo: bool = False) -> list[tuple[int, int, int]]:
        """Draw line i-j for the player to move (IllegalMove changes nothing)."""
        closed = self.game.play(i, j)
        self.token = next(_tokens)
        if not keep_redo:
            self._redo.clear()
        return closed

    def _undo_group(self) -> list[Move]:
        """The lines one Undo takes back, newest first (without changing anything)."""
        lines = self.game.lines
        if not lines:
            return []
        if self.mode != "ai":
            return [lines[-1][0]]
        human = self.human_side
        group: list[Move] = []
        for move, owner in reversed(lines):
            group.append(move)
            if owner == human:
                return group
        return []  # only computer lines: undoing them would only let it play again

    def can_undo(self) -> bool:
        return bool(self._undo_group())

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> list[Move]:
        """Take back the last line (against the computer: your last line and its reply)."""
        group = self._undo_group()
        for _ in group:
            self.game.undo()
        if group:
            self._redo.append(list(reversed(group)))
            self.token = next(_tokens)
        return group

    def redo(self) -> list[Move]:
        if not self._redo:
            return []
        group = self._redo.pop()
        for i, j in group:
            self.play(i, j, keep_redo=True)
        return group


# -- on disk -----------------------------------------------------------------------

def session_path() -> Path:
    return user_data_dir() / "current-game.json"


def games_dir() -> Path:
    return user_data_dir() / "games"


def has_session() -> bool:
    return session_path().is_file()


def save_session(match: Match | None) -> None:
    """Keep the unfinished game for "Continue"; a finished (or no) game clears it."""
    if match is None or match.game.is_over():
        clear_session()
        return
    save_record(match.to_record(), session_path())


def clear_session() -> None:
    try:
        session_path().unlink()
    except FileNotFoundError:
        pass


def archive_session() -> Path | None:
    """Keep an unfinished game that a new one is about to replace: it moves to ``games/``.

    Starting a new game must not silently throw away the one left unfinished;
    "Open game…" lists it afterwards.
    """
    path = session_path()
    if not path.is_file():
        return None
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    folder = games_dir()
    target = folder / f"unfinished-{stamp}.json"
    k = 2
    while target.exists():
        target = folder / f"unfinished-{stamp}-{k}.json"
        k += 1
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.replace(target)
    except OSError:
        return None
    return target


def _move_aside(path: Path) -> Path:
    """Rename an unreadable file so it is kept for the player but not offered again."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.stem}.unreadable-{stamp}{path.suffix}")
    try:
        path.replace(target)
    except OSError:
        pass
    return target


def load_session() -> Match | None:
    """The saved game in progress, None when there is none; RecordError (one line) when unreadable.

    An unreadable file is moved aside before the error is raised.
    """
    path = session_path()
    if not path.is_file():
        return None
    try:
        record = load_record(path)
        return Match.from_record(record)
    except RecordError:
        _move_aside(path)
        raise


def save_game_copy(match: Match, folder: Path | None = None) -> Path:
    """A named copy under ``games/`` (the "Save game" button); returns its path."""
    folder = folder or games_dir()
    stamp = time.strftime("%Y-%m-%d_%H-%M-%S")
    path = folder / f"game-{stamp}.json"
    k = 2
    while path.exists():
        path = folder / f"game-{stamp}-{k}.json"
        k += 1
    save_record(match.to_record(), path)
    return path


def list_saved_games(folder: Path | None = None) -> list[Path]:
    """Saved records, newest first."""
    folder = folder or games_dir()
    try:
        files = [p for p in folder.glob("*.json") if p.is_file()]
    except OSError:
        return []
    return sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)
