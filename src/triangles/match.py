"""The game as a session: who plays, undo grouping, redo, position tokens, records.

Why one class: mouse clicks, keys, the computer, redo, replays and loaded
records must all change the position the same way, so there is exactly one
:meth:`Match.play` that calls ``Game.play``.  The match also owns the redo
stack and the *position token* that the computer's answers are checked
against (an answer for a position that no longer exists is dropped).  No
pygame here: the window and the command line both use it.
"""

from __future__ import annotations

import hashlib
import itertools
import time
import uuid
from dataclasses import dataclass

from triangles.i18n import tr
from triangles.players import DEFAULT_LEVEL, LevelName, Mode, Player
from triangles.record import GameRecord
from triangles.rules import Board, Game, Move, Triangle

__all__ = ["Match", "MatchSettings", "make_players", "new_game_id", "record_game_id"]

#: position tokens are unique across matches, so an answer meant for an old
#: game can never be mistaken for one about a new game's first position
_tokens = itertools.count(1)


@dataclass
class MatchSettings:
    """What the New game dialog (or the command line) chose (the dialog edits it in place)."""

    mode: Mode = "ai"
    preset: str = "phone"
    stars: int | None = None  # None: the preset's default
    seed: int | None = None  # None: a fresh random board
    level: LevelName = DEFAULT_LEVEL
    #: a demo's second computer (the first one plays ``level`` and draws first)
    level2: LevelName = DEFAULT_LEVEL
    extra_turn: bool = False
    computer_starts: bool = False


def make_players(settings: MatchSettings) -> tuple[Player, Player]:
    """The two seats for ``settings``, named in the current language."""
    if settings.mode == "hotseat":
        return Player(tr("player.one")), Player(tr("player.two"))
    if settings.mode == "demo":
        return (
            Player(tr("player.computer.one"), "computer", settings.level),
            Player(tr("player.computer.two"), "computer", settings.level2),
        )
    you = Player(tr("player.you"))
    cpu = Player(tr("player.computer"), "computer", settings.level)
    return (cpu, you) if settings.computer_starts else (you, cpu)


def new_game_id() -> str:
    """A fresh id for a game: the statistics count each id once."""
    return uuid.uuid4().hex


def record_game_id(record: GameRecord) -> str:
    """The record's id; for an older record without one, a digest of its content (the same file, the same id)."""
    if record.game_id:
        return record.game_id
    return "legacy-" + hashlib.sha256(record.to_json().encode("utf-8")).hexdigest()[:32]


class Match:
    """A game plus who plays it, its redo stack and its position token."""

    def __init__(
        self,
        game: Game,
        players: tuple[Player, Player],
        preset: str | None = None,
        seed: int | None = None,
        game_id: str | None = None,
    ) -> None:
        self.game = game
        #: stable across save and load (kept in the record), new for every new game or rematch
        self.game_id = game_id or new_game_id()
        #: a record that was already over when opened: reviewing it is not playing it (statistics skip it)
        self.finished_when_opened = False
        self.players = players
        self.preset = preset
        self.seed = seed
        self._redo: list[list[Move]] = []
        #: new on every change; the computer's answers carry the token they were asked for
        self.token = next(_tokens)
        #: ((token, lines drawn), group): the HUD asks can_undo() every frame; the group changes only with the position
        self._undo_cache: tuple[tuple[int, int], list[Move]] | None = None

    # -- construction ------------------------------------------------------------

    @classmethod
    def new(cls, settings: MatchSettings) -> Match:
        """A fresh board from the settings' preset (PresetError / ValueError for bad settings)."""
        from triangles.presets import get_preset

        preset = get_preset(settings.preset)
        seed = settings.seed if settings.seed is not None else int(time.time_ns() % 1_000_000_007)
        board = preset.make_board(settings.stars, seed)
        return cls(Game(board, settings.extra_turn), make_players(settings), preset.name, seed)

    @classmethod
    def from_record(cls, record: GameRecord) -> Match:
        """The position after all the record's moves (``record.replay``); RecordError when it does not replay."""
        game = record.replay()
        match = cls(game, record.players, record.preset, record.seed, game_id=record_game_id(record))
        match.finished_when_opened = game.is_over()
        return match

    def rematch(self) -> Match:
        """Same board, same players and options, empty: a new game with a new id."""
        return Match(Game(self.game.board, self.game.extra_turn), self.players, self.preset, self.seed)

    def to_record(self) -> GameRecord:
        return GameRecord.from_game(
            self.game, players=self.players, preset=self.preset, seed=self.seed, game_id=self.game_id
        )

    # -- who is who ---------------------------------------------------------------

    @property
    def board(self) -> Board:
        return self.game.board

    @property
    def mode(self) -> Mode:
        """Taken from the seats (records keep players, not modes): two computers are a demo."""
        computers = sum(p.is_computer for p in self.players)
        return "demo" if computers == 2 else "ai" if computers == 1 else "hotseat"

    def is_computer(self, player: int) -> bool:
        return self.players[player].is_computer

    @property
    def colors_swapped(self) -> bool:
        """Against the computer that starts, the person sits in seat 2 but keeps the first colour.

        Colours follow the person, not the seat: you are red-orange in Nebula
        whoever draws first.
        """
        return self.mode == "ai" and self.players[0].is_computer and not self.players[1].is_computer

    @property
    def computer_to_move(self) -> bool:
        return not self.game.is_over() and self.is_computer(self.game.player)

    @property
    def human_side(self) -> int | None:
        """Against the computer: the human's player index (None in hotseat)."""
        if self.mode != "ai":
            return None
        for k, p in enumerate(self.players):
            if not p.is_computer:
                return k
        return None

    def level(self) -> LevelName:
        """The computer's level (the first computer's in a demo; the default when no seat is the computer's)."""
        for p in self.players:
            if p.is_computer:
                return p.level or DEFAULT_LEVEL
        return DEFAULT_LEVEL

    def level_of(self, seat: int) -> LevelName:
        """The level the computer in ``seat`` plays (the default for a person's seat)."""
        return self.players[seat].level or DEFAULT_LEVEL

    # -- the one path for moves ---------------------------------------------------

    def play(self, i: int, j: int, *, keep_redo: bool = False) -> list[Triangle]:
        """Draw line i-j for the player to move; returns what it closed (IllegalMove changes nothing)."""
        closed = self.game.play(i, j)
        self.token = next(_tokens)
        if not keep_redo:
            self._redo.clear()
        return closed

    def _undo_group(self) -> list[Move]:
        """The lines one Undo takes back, newest first (without changing anything).

        Hotseat: the last line.  Against the computer: back to and including the
        human's last line, so the computer's replies go with it; nothing when
        only computer lines were drawn (undoing them would only let it play again),
        and so nothing in a demo.
        Worked out once per position (``game.lines`` builds every line).
        """
        key = (self.token, self.game.move_count)
        cache = self._undo_cache
        if cache is None or cache[0] != key:
            cache = self._undo_cache = (key, self._find_undo_group())
        return list(cache[1])

    def _find_undo_group(self) -> list[Move]:
        lines = self.game.lines
        if not lines:
            return []
        if self.mode == "demo":
            return []
        human = self.human_side
        if human is None:
            return [lines[-1][0]]
        group: list[Move] = []
        for move, owner in reversed(lines):
            group.append(move)
            if owner == human:
                return group
        return []

    def can_undo(self) -> bool:
        return bool(self._undo_group())

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> list[Move]:
        """Take back the last line (against the computer: your last line and its replies)."""
        group = self._undo_group()
        for _ in group:
            self.game.undo()
        if group:
            self._redo.append(list(reversed(group)))
            self.token = next(_tokens)
        return group

    def redo(self) -> list[Move]:
        """Play again what the last undo took back (through :meth:`play`)."""
        if not self._redo:
            return []
        group = self._redo.pop()
        for i, j in group:
            self.play(i, j, keep_redo=True)
        return group
