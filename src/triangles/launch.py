"""What the command line asks the game window to do (plain data, no pygame).

Every New game choice is optional here (None: not given), so the window can
tell "the command line said Medium" from "the command line said nothing" and
lay the command line's choices over the remembered ones for this run only.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from triangles.match import MatchSettings
from triangles.players import LEVEL_NAMES, MODES, LevelName, Mode

__all__ = ["LaunchOptions", "MODES", "LEVEL_NAMES"]


@dataclass
class LaunchOptions:
    """Start-up choices.  With none of preset/stars/seed/mode/open_record set, the main menu opens."""

    preset: str | None = None
    stars: int | None = None
    seed: int | None = None
    mode: Mode | None = None
    level: LevelName | None = None
    #: a demo's second computer
    level2: LevelName | None = None
    extra_turn: bool | None = None
    computer_starts: bool | None = None
    fullscreen: bool = False
    open_record: Path | None = None
    #: print "TRIANGLES READY" on stdout once the first frame is shown (for tests)
    print_ready: bool = True

    @property
    def straight_into_game(self) -> bool:
        return any(v is not None for v in (self.preset, self.stars, self.seed, self.mode, self.open_record))

    def new_game_choices(self, remembered: MatchSettings | None = None) -> MatchSettings:
        """``remembered`` (or the defaults) with every choice the command line made laid over it.

        ``--stars`` without ``--preset`` means the phone, as the command line checked it.
        """
        s = replace(remembered) if remembered is not None else MatchSettings()
        if self.preset is not None or self.stars is not None:
            preset = self.preset or "phone"
            if preset != s.preset:
                s.stars = None  # the remembered size belongs to the other preset
            s.preset = preset
        if self.stars is not None:
            s.stars = self.stars
        if self.seed is not None:
            s.seed = self.seed
        if self.mode is not None:
            s.mode = self.mode
        if self.level is not None:
            s.level = self.level
        if self.level2 is not None:
            s.level2 = self.level2
        if self.extra_turn is not None:
            s.extra_turn = self.extra_turn
        if self.computer_starts is not None:
            s.computer_starts = self.computer_starts
        return s
