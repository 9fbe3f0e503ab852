"""Keeping games on disk: the game in progress ("Continue") and saved copies.

The game in progress is written to ``user_data_dir()/current-game.json`` (an
atomic write through ``save_record``) after every change and when the window
closes, and offered as "Continue" at the next start.  A file that cannot be
read is moved aside (never deleted: the player's data is never lost) and the
reason is raised as a one-line :class:`RecordError`.  No pygame here.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from triangles.files import move_aside
from triangles.match import Match
from triangles.paths import user_data_dir
from triangles.players import Player
from triangles.record import RecordError, load_record, save_record

__all__ = [
    "session_path",
    "games_dir",
    "save_session",
    "load_session",
    "session_summary",
    "SessionSummary",
    "clear_session",
    "has_session",
    "save_game_copy",
    "list_saved_games",
    "archive_session",
]


def session_path() -> Path:
    return user_data_dir() / "current-game.json"


def games_dir() -> Path:
    return user_data_dir() / "games"


def has_session() -> bool:
    """A saved game exists (something is at its path: a folder or a device there is unreadable, not absent)."""
    p = session_path()
    return p.exists() or p.is_symlink()


def save_session(match: Match | None) -> None:
    """Keep the unfinished game for "Continue"; a finished, untouched (no line yet) or no game clears it."""
    if match is None or match.game.is_over() or match.game.move_count == 0:
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


@dataclass(frozen=True)
class SessionSummary:
    """What the main menu says about the saved game: who plays, the score, how many lines."""

    players: tuple[Player, Player]
    scores: tuple[int, int]
    lines: int


#: (file identity, summary) of the last saved game read: a 450-line 180-star game takes ~180 ms to replay,
#: and the start-up check, every menu rebuild (resize, language) and the menu's line all want it
_summary: list[tuple[tuple[int, int, int], SessionSummary]] = []


def session_summary() -> SessionSummary | None:
    """The saved game's summary, read once per version of the file; RecordError (moved aside) when unreadable."""
    path = session_path()
    if not has_session():
        return None
    try:
        st = path.stat()
        key = (st.st_ino, st.st_mtime_ns, st.st_size)
    except OSError:
        key = (0, 0, -1)
    if _summary and _summary[0][0] == key:
        return _summary[0][1]
    match = load_session()
    if match is None:
        return None
    summary = SessionSummary(match.players, match.game.scores, match.game.move_count)
    _summary[:] = [(key, summary)]
    return summary


def load_session() -> Match | None:
    """The saved game in progress, None when there is none; RecordError (one line) when unreadable.

    An unreadable file is moved aside before the error is raised.
    """
    path = session_path()
    if not has_session():
        return None
    try:
        record = load_record(path)
        return Match.from_record(record)
    except RecordError:
        move_aside(path)
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
