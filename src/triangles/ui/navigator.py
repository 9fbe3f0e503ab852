"""Where the player can go, in one place: every change of screen and of match.

Why one place: scenes only *ask* to go somewhere ("pause", "show the final
screen", "start this match"); the navigator builds the next scene and puts it
on the stack, so no scene constructs or reconfigures another.  It also owns
the match lifecycle around the screens: starting, continuing and opening a
match (the unfinished one is archived, never thrown away), saving the game in
progress, and what the New game dialog last chose in this session.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from triangles.i18n import tr
from triangles.launch import LaunchOptions
from triangles.match import Match, MatchSettings
from triangles.presets import PresetError, load_presets
from triangles.record import RecordError, load_record
from triangles.rules import Board
from triangles.saves import archive_session, has_session, load_session, save_game_copy, save_session, session_summary
from triangles.settings import hotseat_players
from triangles.stats import StatisticsBook
from triangles.ui.scenes.backdrop import Backdrop
from triangles.ui.scenes.base import Scene
from triangles.ui.scenes.final import FinalScene
from triangles.ui.scenes.howto import HowToPlayScene
from triangles.ui.scenes.keep import KeepProblemScene
from triangles.ui.scenes.menu import MainMenuScene
from triangles.ui.scenes.message import MessageScene
from triangles.ui.scenes.new_game import NewGameScene
from triangles.ui.scenes.open_game import OpenGameScene
from triangles.ui.scenes.pause import PauseScene
from triangles.ui.scenes.play import PlayScene
from triangles.ui.scenes.review import ReviewScene
from triangles.ui.scenes.settings import SettingsScene
from triangles.ui.scenes.stats import ResetStatisticsScene, StatisticsScene, report_statistics_problems

if TYPE_CHECKING:
    from triangles.ui.app import App

__all__ = ["Navigator"]


class Navigator:
    """Scene changes and the match lifecycle for one :class:`App`."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.stack = app.stack
        #: what the New game dialog last started (None: nothing yet this session)
        self.new_game_choices: MatchSettings | None = None
        #: the starry board behind the menus (made on its first draw)
        self.backdrop = Backdrop(app)
        #: why the game in progress could not be kept last time (None: it was kept)
        self.keep_failure: str | None = None
        self._keep_reported = False
        #: this window's statistics (read on first use; each problem is reported once)
        self.stats = StatisticsBook()

    def start(self, options: LaunchOptions) -> None:
        """The first screen: the main menu, or straight into a record or a new game.

        A saved game that cannot be read is moved aside now and said so once,
        so the menu never offers a Continue that would fail.
        """
        problem = self._unreadable_saved_game()
        self.stack.replace(MainMenuScene(self.app, self.backdrop))
        if problem is not None:
            self.message(tr("error.session", reason=problem), tr("error.session.title"))
        if options.open_record is not None:
            self.open_record(options.open_record)
        elif options.straight_into_game:
            # the command line's choices over the remembered ones (the app put those in new_game_choices)
            self.start_new(options.new_game_choices(self.new_game_choices))

    @staticmethod
    def _unreadable_saved_game() -> str | None:
        """Why the saved game cannot be read (it is moved aside), or None when it can or there is none."""
        if not has_session():
            return None
        try:
            session_summary()  # moves an unreadable file aside before raising; the menu's line reuses it
        except RecordError as exc:
            return str(exc)
        return None

    # -- menus and dialogs ------------------------------------------------------------

    def show_menu(self) -> None:
        """Leave the game (it is kept for Continue) for the main menu."""
        self.save_current()
        self._cancel_thinking()
        self.stack.replace(MainMenuScene(self.app, self.backdrop))

    def show_new_game(self) -> None:
        """The New game dialog over what is on screen (Back returns to it)."""
        self.stack.push(NewGameScene(self.app, self.backdrop, self.new_game_choices))

    def new_game(self) -> None:
        """From a game: keep it for Continue, then the New game dialog over the main menu."""
        self.show_menu()
        self.show_new_game()

    def show_open_game(self) -> None:
        self.stack.push(OpenGameScene(self.app, self.backdrop))

    def show_howto(self) -> None:
        """How to play, over the menu or the game (reading it never touches the game)."""
        self.stack.push(HowToPlayScene(self.app))

    def show_stats(self) -> None:
        self.stack.push(StatisticsScene(self.app))
        report_statistics_problems(self.app)

    def confirm_stats_reset(self) -> None:
        """Ask before clearing the statistics (Cancel keeps everything)."""
        self.stack.push(ResetStatisticsScene(self.app))

    def show_settings(self) -> None:
        self.stack.push(SettingsScene(self.app))

    def message(self, text: str, title: str | None = None) -> None:
        """A message box over whatever is on screen."""
        self.stack.push(MessageScene(self.app, text, title or tr("message.title")))

    def close(self, scene: Scene) -> None:
        """Close ``scene`` (and anything over it); the scene below shows again."""
        self.stack.pop(scene)

    # -- around the game ----------------------------------------------------------------

    def pause(self) -> None:
        self.stack.push(PauseScene(self.app))

    def resume(self, *, undo: bool = False) -> None:
        """Back to the game from the overlay over it; ``undo``: then take back the last line."""
        play = self.stack.find(PlayScene)
        if play is None:
            return
        over = self.stack.above(play)
        if over is not None:
            self.stack.pop(over)
        if undo:
            play.undo()

    def show_final(self, match: Match) -> None:
        self.stack.push(FinalScene(self.app, match))
        # the one place a game ends in the window: counted once per game id (review, undo and replay,
        # a reopened finished record never count again); never raises, problems shown once
        self.stats.count(match, match.preset or _guess_preset(match.board))
        report_statistics_problems(self.app)

    def show_review(self, match: Match) -> None:
        self.stack.push(ReviewScene(self.app, match))

    # -- matches ----------------------------------------------------------------------

    def current_match(self) -> Match | None:
        play = self.stack.find(PlayScene)
        return play.match if play is not None else None

    def start_new(self, settings: MatchSettings, *, remember: MatchSettings | None = None) -> None:
        """A new match from ``settings``; ``remember``: what the New game dialog offers next time."""
        if remember is not None:
            self.new_game_choices = remember
        try:
            match = Match.new(settings)
        except (PresetError, ValueError) as exc:
            self.message(tr("error.new_game", reason=str(exc)))
            return
        kept = getattr(self.app, "settings", None)
        if settings.mode == "hotseat" and kept is not None:
            match.players = hotseat_players(kept)  # the names chosen in Settings
        self.start_match(match)

    def start_match(self, match: Match, *, continued: bool = False) -> None:
        """Play ``match``; unless it *is* the saved game (Continue), that one is archived first."""
        self.save_current()
        if not continued:
            archive_session()
        self._cancel_thinking()
        self.app.window.use_preset(match.preset or _guess_preset(match.board))
        self.stack.replace(PlayScene(self.app, match))

    def continue_saved(self) -> bool:
        """Play the saved game; False when there is none or it cannot be read (a message box says why)."""
        try:
            match = load_session()
        except RecordError as exc:
            self.message(tr("error.session", reason=str(exc)), tr("error.session.title"))
            return False
        if match is None:
            return False
        self.start_match(match, continued=True)
        return True

    def open_record(self, path: Path) -> bool:
        """Open a record file; on failure a message box says why and nothing else changes."""
        try:
            match = Match.from_record(load_record(path))
        except RecordError as exc:
            self.message(
                tr("error.open_record", name=os.path.basename(str(path)), reason=str(exc)),
                tr("error.open_record.title"),
            )
            return False
        self.start_match(match)
        return True

    def save_copy(self) -> None:
        """Save a copy of the game in progress under the games folder and say so in the game."""
        play = self.stack.find(PlayScene)
        if play is None:
            return
        try:
            path = save_game_copy(play.match)
        except OSError as exc:  # the games folder is read-only or full: offer any other folder
            self.show_keep_problem(play.match, _reason(exc), at_quit=False)
            return
        self.resume()
        play.say(tr("status.saved", name=path.name), "good", 3.0)

    def save_current(self) -> bool:
        """Keep the game in progress for "Continue"; False when it could not be kept (never raises)."""
        match = self.current_match()
        if match is None:
            return True
        try:
            save_session(match)
        except Exception as exc:  # a full disk must not turn quitting into a crash
            self.keep_failure = _reason(exc)
            print(tr("error.autosave_exit", prog="triangles", reason=exc), file=sys.stderr)
            return False
        self.keep_failure = None
        self._keep_reported = False
        return True

    # -- when the game cannot be kept ---------------------------------------------------------

    def report_keep_failure(self, match: Match, exc: BaseException) -> None:
        """The autosave failed: say so in a box that stays, once until a save works again."""
        self.keep_failure = _reason(exc)
        if self._keep_reported:
            return
        self._keep_reported = True
        self.show_keep_problem(match, self.keep_failure, at_quit=False)

    def kept_again(self) -> None:
        """An autosave worked: a later failure is reported again."""
        self.keep_failure = None
        self._keep_reported = False

    def show_keep_problem(self, match: Match, reason: str, *, at_quit: bool) -> None:
        self.stack.push(KeepProblemScene(self.app, match, reason, at_quit=at_quit))

    def asking_before_quit(self) -> bool:
        """The at-quit box is up: a second close request means quit without the game."""
        top = self.stack.top
        return isinstance(top, KeepProblemScene) and top.at_quit

    def quit_would_lose_the_game(self) -> bool:
        """Keep the game now; True when that failed and the player has not been asked yet."""
        if self.save_current() or self.asking_before_quit():
            return False
        match = self.current_match()
        if match is None:
            return False
        self.show_keep_problem(match, self.keep_failure or "", at_quit=True)
        return True

    def saved_copy_elsewhere(self, path: Path) -> None:
        play = self.stack.find(PlayScene)
        if play is not None:
            play.say(tr("status.saved", name=str(path)), "good", 4.0)

    def _cancel_thinking(self) -> None:
        self.app.worker.cancel()
        self.app.hint_worker.cancel()


def _reason(exc: BaseException) -> str:
    """An OS error as the system words it ("Read-only file system"), without errno codes."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _guess_preset(board: Board) -> str:
    """A record without a preset: the first preset whose board holds all the stars."""
    try:
        xs, ys = board.stars[:, 0].max(), board.stars[:, 1].max()
        for name, p in load_presets().items():
            if xs <= p.board[2] and ys <= p.board[3]:
                return name
    except ValueError:  # no stars, or a broken presets file
        pass
    return "tablet"
