"""Who plays: the :class:`Player` of a match and the vocabularies that name them.

Each vocabulary (player kinds, computer levels, match modes) is defined here
once; the record format, the AI's level table, the command line and the UI
all take their names from this module.  Pure data, no pygame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

__all__ = ["Player", "PlayerKind", "PLAYER_KINDS", "LevelName", "LEVEL_NAMES", "Mode", "MODES", "DEFAULT_LEVEL"]

PlayerKind = Literal["human", "computer"]
PLAYER_KINDS: tuple[PlayerKind, ...] = get_args(PlayerKind)

#: the computer's levels, weakest first (the AI's parameter sets are keyed by these)
LevelName = Literal["easy", "medium", "hard"]
LEVEL_NAMES: tuple[LevelName, ...] = get_args(LevelName)
DEFAULT_LEVEL: LevelName = "medium"

#: "ai": one person against the computer; "hotseat": two people at one machine;
#: "demo": the computer against itself (two levels, nobody's statistics)
Mode = Literal["ai", "hotseat", "demo"]
MODES: tuple[Mode, ...] = get_args(Mode)


@dataclass(frozen=True)
class Player:
    """One seat of a match: a display name, human or computer, and the computer's level.

    >>> Player("Computer", "computer", "hard").is_computer
    True
    """

    name: str
    kind: PlayerKind = "human"
    level: LevelName | None = None

    @property
    def is_computer(self) -> bool:
        return self.kind == "computer"

    def to_dict(self) -> dict[str, str | None]:
        """The record's JSON form."""
        return {"name": self.name, "kind": self.kind, "level": self.level}
