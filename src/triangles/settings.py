"""The player's settings: what they are, their defaults, and keeping them on disk.

Why one typed object: the window, the New game dialog, How to play and the
Settings screen all read the same choices, and each value is checked once,
here, when the file is read.  The file is ``user_config_dir()/settings.json``
(``{"format": "triangles-settings", "version": 1, ...}``), written atomically.
Nothing here may crash the game: a missing file gives the defaults silently;
an unreadable file is kept aside and gives the defaults; a single bad value
falls back to its own default; each of these yields one :class:`Problem`
that the window shows once.  No pygame here.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from triangles.file_messages import file_problem_text
from triangles.files import FileProblem, NoSuchFile, move_aside, read_json, write_text_atomic
from triangles.i18n import available_languages, tr
from triangles.match import MatchSettings
from triangles.paths import assets_dir, user_config_dir
from triangles.players import LEVEL_NAMES, MODES, Player

__all__ = [
    "FORMAT",
    "VERSION",
    "WINDOW_SCALES",
    "NAME_LIMIT",
    "Settings",
    "Problem",
    "SettingsStore",
    "settings_path",
    "available_themes",
    "load_settings",
    "save_settings",
    "hotseat_players",
    "seat_name",
]

FORMAT = "triangles-settings"
VERSION = 1
#: window sizes offered, in percent of the preset's size (None in a Settings means: fit the desktop)
WINDOW_SCALES: tuple[int, ...] = (75, 100, 125, 150)
#: longest hotseat name kept (the HUD cards are narrow on the phone)
NAME_LIMIT = 20
DEFAULT_THEME = "nebula"
DEFAULT_VOLUME = 80

#: caption of each field, for "this value could not be used" (the same words the screens use)
_CAPTIONS: dict[str, str] = {
    "language": "settings.language",
    "theme": "settings.theme",
    "sound": "settings.sound",
    "volume": "settings.volume",
    "animations": "settings.animations",
    "player_names": "settings.names",
    "window_scale": "settings.window",
    "fullscreen": "settings.fullscreen",
    "howto_offered": "settings.howto_offered",
    "closing_aid": "zoom.tip.aid",
    "new_game": "new.title",
    "new_game.mode": "new.mode",
    "new_game.preset": "new.preset",
    "new_game.stars": "new.stars",
    "new_game.level": "new.level",
    "new_game.level2": "new.demo.level2",
    "new_game.computer_starts": "new.first",
    "new_game.extra_turn": "new.extra_turn",
}


@dataclass(frozen=True)
class Problem:
    """Something the player should hear about once; the text is made in the language shown at the time."""

    key: str
    fmt: tuple[tuple[str, str], ...] = ()
    #: what went wrong in technical words (tests, logs); never shown
    detail: str = ""

    def text(self) -> str:
        args: dict[str, object] = dict(self.fmt)
        if "field" in args:
            args["name"] = tr(_CAPTIONS.get(str(args["field"]), str(args["field"])))
        return tr(self.key, **args)


@dataclass
class Settings:
    """Every choice the player can keep between runs (defaults are what a first start gets)."""

    #: catalog code; None: follow the system locale (``i18n.detect_language``)
    language: str | None = None
    theme: str = DEFAULT_THEME
    sound: bool = True
    volume: int = DEFAULT_VOLUME  # 0..100, read at every sound (ui/sound.py)
    #: False: reduced motion, animations show their end state at once
    animations: bool = True
    #: what the New game dialog offers (its last choices; the seed is never kept)
    new_game: MatchSettings = field(default_factory=MatchSettings)
    #: hotseat names; "" means "Player 1" / "Player 2" in the current language
    player_names: tuple[str, str] = ("", "")
    #: percent of the preset's window size (limited to the desktop); None: fit the desktop
    window_scale: int | None = None
    fullscreen: bool = False
    #: How to play was offered once already (at first start)
    howto_offered: bool = False
    #: the aid: show the lines that would close a triangle now (T or the board tool)
    closing_aid: bool = False

    def names(self) -> tuple[str, str]:
        """The two hotseat names, the empty ones as "Player 1" / "Player 2" in the current language."""
        a, b = (n.strip() for n in self.player_names)
        return a or tr("player.one"), b or tr("player.two")

    def new_game_choices(self) -> MatchSettings:
        """A fresh copy of the remembered New game choices."""
        return replace(self.new_game, seed=None)

    def to_dict(self) -> dict[str, Any]:
        """The file's JSON form."""
        ng = self.new_game
        return {
            "format": FORMAT,
            "version": VERSION,
            "language": self.language,
            "theme": self.theme,
            "sound": self.sound,
            "volume": self.volume,
            "animations": self.animations,
            "new_game": {
                "mode": ng.mode,
                "preset": ng.preset,
                "stars": ng.stars,
                "level": ng.level,
                "level2": ng.level2,
                "computer_starts": ng.computer_starts,
                "extra_turn": ng.extra_turn,
            },
            "player_names": list(self.player_names),
            "window_scale": "fit" if self.window_scale is None else self.window_scale,
            "fullscreen": self.fullscreen,
            "howto_offered": self.howto_offered,
            "closing_aid": self.closing_aid,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=2) + "\n"

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> tuple[Settings, list[Problem]]:
        """Every value checked on its own: a bad one keeps its default and adds one problem."""
        s = cls()
        problems: list[Problem] = []

        def bad(name: str) -> None:
            problems.append(Problem("settings.error.value", (("field", name),)))

        def boolean(name: str, default: bool, src: dict[str, Any] = data, prefix: str = "") -> bool:
            if name not in src:
                return default
            v = src[name]
            if isinstance(v, bool):
                return v
            bad(prefix + name)
            return default

        if "language" in data:
            v = data["language"]
            if v is None or (isinstance(v, str) and v in available_languages()):
                s.language = v
            else:
                bad("language")
        if "theme" in data:
            v = data["theme"]
            if isinstance(v, str) and v in available_themes():
                s.theme = v
            else:
                bad("theme")
        s.sound = boolean("sound", s.sound)
        if "volume" in data:
            v = data["volume"]
            if isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100:
                s.volume = v
            else:
                bad("volume")
        s.animations = boolean("animations", s.animations)
        s.fullscreen = boolean("fullscreen", s.fullscreen)
        s.howto_offered = boolean("howto_offered", s.howto_offered)
        s.closing_aid = boolean("closing_aid", s.closing_aid)
        if "player_names" in data:
            v = data["player_names"]
            if isinstance(v, list) and len(v) == 2 and all(isinstance(n, str) and len(n) <= NAME_LIMIT for n in v):
                s.player_names = (v[0].strip(), v[1].strip())
            else:
                bad("player_names")
        if "window_scale" in data:
            v = data["window_scale"]
            if v == "fit":
                s.window_scale = None
            elif isinstance(v, int) and not isinstance(v, bool) and v in WINDOW_SCALES:
                s.window_scale = v
            else:
                bad("window_scale")
        if "new_game" in data:
            v = data["new_game"]
            if isinstance(v, dict):
                s.new_game = _new_game_from(v, bad, boolean)
            else:
                bad("new_game")
        return s, problems


def _new_game_from(
    data: dict[str, Any], bad: Callable[[str], None], boolean: Callable[[str, bool, dict[str, Any], str], bool]
) -> MatchSettings:
    """The remembered New game choices, each checked against the vocabularies and the presets."""
    from triangles.presets import PresetError, load_presets

    ng = MatchSettings()
    try:
        presets = load_presets()
    except PresetError:
        presets = {}
    if "mode" in data:
        if data["mode"] in MODES:
            ng.mode = data["mode"]
        else:
            bad("new_game.mode")
    if "preset" in data:
        if isinstance(data["preset"], str) and data["preset"] in presets:
            ng.preset = data["preset"]
        else:
            bad("new_game.preset")
    if "stars" in data:
        v = data["stars"]
        preset = presets.get(ng.preset)
        if v is None or (isinstance(v, int) and not isinstance(v, bool) and preset is not None and v in preset.stars):
            ng.stars = v
        else:
            bad("new_game.stars")
    if "level" in data:
        if data["level"] in LEVEL_NAMES:
            ng.level = data["level"]
        else:
            bad("new_game.level")
    if "level2" in data:
        if data["level2"] in LEVEL_NAMES:
            ng.level2 = data["level2"]
        else:
            bad("new_game.level2")
    ng.computer_starts = boolean("computer_starts", ng.computer_starts, data, "new_game.")
    ng.extra_turn = boolean("extra_turn", ng.extra_turn, data, "new_game.")
    return ng


def settings_path() -> Path:
    return user_config_dir() / "settings.json"


def available_themes() -> list[str]:
    """The folders under ``assets/themes`` that hold a ``theme.json``."""
    folder = assets_dir() / "themes"
    try:
        return sorted(p.name for p in folder.iterdir() if (p / "theme.json").is_file())
    except OSError:
        return [DEFAULT_THEME]


#: bytes: real settings are about 600
MAX_BYTES = 256_000


def load_settings(path: Path | None = None) -> tuple[Settings, list[Problem]]:
    """The settings in ``path`` (default :func:`settings_path`) and what was wrong with them.

    Missing file: defaults, no problem.  Unreadable or not a settings file: kept
    aside under a new name, defaults, one problem.  Bad values: see :meth:`Settings.from_dict`.
    """
    path = path or settings_path()
    try:
        data = read_json(path, MAX_BYTES)
    except NoSuchFile:  # no file (or no folder): a first start
        return Settings(), []
    except FileProblem as exc:  # a folder, a device, huge, binary, damaged, nested 200 000 deep
        return _unreadable(path, file_problem_text(exc))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return _unreadable(path, f'not a "{FORMAT}" file')
    if data.get("version") != VERSION:
        return _unreadable(path, f"version {data.get('version')!r}, this game reads {VERSION}")
    return Settings.from_dict(data)


def saved_language(path: Path | None = None) -> str | None:
    """The language chosen in Settings, or None; reads only, never moves a bad file (the window does that).

    For the command line, which speaks the player's language too.
    """
    try:
        data = read_json(path or settings_path(), MAX_BYTES)
    except FileProblem:
        return None
    lang = data.get("language") if isinstance(data, dict) else None
    return lang if isinstance(lang, str) and lang in available_languages() else None


def _unreadable(path: Path, reason: str) -> tuple[Settings, list[Problem]]:
    kept = move_aside(path)
    # the reason and the new name are for logs and tests, not the player: the message says what happened
    return Settings(), [Problem("settings.error.unreadable", detail=f"{reason}; kept as {kept.name}")]


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write the settings atomically (OSError for a read-only or full disk)."""
    write_text_atomic(path or settings_path(), settings.to_json())


class SettingsStore:
    """The running game's settings and their file: read once, written on every change.

    Why a store: the first failed write is reported once (a read-only folder
    must not nag at every click), and the problems found when reading wait
    here until the window can show them.
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or settings_path()
        self.settings, self.problems = load_settings(self.path)
        self.write_failed = False
        #: changed but not written yet (names being typed): written on the next save or on quit
        self.dirty = False

    def save(self) -> Problem | None:
        """Write the settings; the first failure this session comes back as a problem, later ones quietly."""
        self.dirty = False
        try:
            save_settings(self.settings, self.path)
        except OSError as exc:
            if self.write_failed:
                return None
            self.write_failed = True
            return Problem("settings.error.save", (("reason", exc.strerror or str(exc)),))
        self.write_failed = False
        return None

    def take_problems(self) -> list[Problem]:
        """The problems found when reading, once (the window shows them a single time)."""
        out, self.problems = self.problems, []
        return out


def hotseat_players(settings: Settings) -> tuple[Player, Player]:
    """The two seats of a hotseat game, named as the settings say."""
    a, b = settings.names()
    return Player(a), Player(b)


@lru_cache(maxsize=16)
@functools.lru_cache(maxsize=16)
def _every_translation(key: str) -> frozenset[str]:
    """``key`` in every catalog (to know a stored "Player 1" / "Игрок 1" as a default name)."""
    import gettext

    from triangles.i18n import DOMAIN, catalog_dir

    out = set()
    for lang in available_languages():
        try:
            out.add(gettext.translation(DOMAIN, str(catalog_dir()), languages=[lang]).gettext(key))
        except (OSError, ValueError):
            continue
    return frozenset(out)


def seat_name(player: Player, mode: str, seat: int = 0) -> str:
    """How a seat is named on screen now: a default name follows the current language, a chosen one stays.

    Records keep the names in the language of the day; "You", "Computer",
    "Player 1" and "Player 2" are shown in the language on screen instead.
    In a demo (``mode`` "demo") the two computers are "Computer 1" and "Computer 2" by ``seat``.
    """
    if player.is_computer:
        if mode == "demo":
            return tr("player.computer.one" if seat == 0 else "player.computer.two")
        return tr("player.computer")
    if mode == "ai":
        return tr("player.you") if player.name in _every_translation("player.you") else player.name
    for key in ("player.one", "player.two"):
        if player.name in _every_translation(key):
            return tr(key)
    return player.name


def seat_names(players: tuple[Player, Player]) -> tuple[str, str]:
    """Both seats' names as shown now (see :func:`seat_name`), for a match or a record's players."""
    computers = sum(p.is_computer for p in players)
    mode = "demo" if computers == 2 else "ai" if computers == 1 else "hotseat"
    return seat_name(players[0], mode, 0), seat_name(players[1], mode, 1)
