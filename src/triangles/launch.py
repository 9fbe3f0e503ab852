"""What the command line asks the game window to do (plain data, no pygame)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from triangles.players import DEFAULT_LEVEL, LEVEL_NAMES, MODES, LevelName, Mode

__all__ = ["LaunchOptions", "MODES", "LEVEL_NAMES"]


@dataclass
class LaunchOptions:
    """Start-up choices.  With none of preset/stars/seed/mode/open_record set, the main menu opens."""

    preset: str | None = None
    stars: int | None = None
    seed: int | None = None
    mode: Mode | None = None
    level: LevelName = DEFAULT_LEVEL
    extra_turn: bool = False
    computer_starts: bool = False
    fullscreen: bool = False
    open_record: Path | None = None
    #: print "TRIANGLES READY" on stdout once the first frame is shown (for tests)
    print_ready: bool = True

    @property
    def straight_into_game(self) -> bool:
        return any(v is not None for v in (self.preset, self.stars, self.seed, self.mode, self.open_record))
