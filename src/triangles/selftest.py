"""``triangles --selftest``: is this build whole?  Headless, and the player's files are never touched.

Why: a bundle can be missing a data file, a font, a catalog or a compiled
library and still start; this walks everything a player can reach without a
window: every asset file, the rules on their own examples, a short game
against each computer level, every screen drawn off-screen, a record written
and read back.  It prints one line (``triangles selftest: ok (N checks,
X.X s)``) and returns 0, or names each failure and returns 1.

The SDL drivers are set to ``dummy`` and ``TRIANGLES_HOME`` to a temporary
folder before anything imports pygame or reads a setting.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

__all__ = ["run"]

#: seconds the computer may think per move here (the levels use far less on these boards)
_MOVE_LIMIT = 5.0


class _Checks:
    """Runs named checks; a failure is remembered with its name, never raised."""

    def __init__(self, verbose: bool) -> None:
        self.passed = 0
        self.failed: list[str] = []
        self.verbose = verbose

    def __call__(self, name: str, fn: Callable[[], object]) -> bool:
        try:
            fn()
        except Exception as exc:  # every failure is reported by name; the walk goes on
            text = str(exc).strip().splitlines()
            self.failed.append(f"{name}: {type(exc).__name__}: {text[0] if text else ''}".rstrip(": "))
            if self.verbose:
                traceback.print_exc()
            return False
        self.passed += 1
        if self.verbose:
            print(f"  ok  {name}", file=sys.stderr)
        return True


def _expect(cond: bool, what: str) -> None:
    if not cond:
        raise AssertionError(what)


def _no_arguments(fn: Callable[..., object]) -> bool:
    import inspect

    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return False
    return all(p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params)


# -- assets ---------------------------------------------------------------------------


def _check_assets(check: _Checks) -> None:
    import gettext
    import json

    import pygame

    from triangles.paths import assets_dir
    from triangles.presets import load_presets
    from triangles.ui.render.theme import load_theme

    root = assets_dir()
    check("assets folder", lambda: _expect(root.is_dir(), f"no assets folder at {root}"))
    if not root.is_dir():
        return

    def read_json(path: Path) -> None:
        json.loads(path.read_text(encoding="utf-8"))

    def read_font(path: Path) -> None:
        font = pygame.font.Font(str(path), 24)
        _expect(font.render("Triangles Треугольники Tam giác", True, (255, 255, 255)).get_width() > 0, "empty")

    def read_catalog(path: Path) -> None:
        with path.open("rb") as f:
            catalog = gettext.GNUTranslations(f)
        _expect(catalog.gettext("app.title") != "app.title", "no app.title in the catalog")

    def read_sound(path: Path) -> None:
        if not pygame.mixer.get_init():
            pygame.mixer.init()
        _expect(pygame.mixer.Sound(str(path)).get_length() > 0, "empty sound")

    readers: dict[str, Callable[[Path], object]] = {
        ".json": read_json,
        ".ttf": read_font,
        ".otf": read_font,
        ".mo": read_catalog,
        ".png": lambda p: pygame.image.load(str(p)),
        ".jpg": lambda p: pygame.image.load(str(p)),
        ".wav": read_sound,
        ".ogg": read_sound,
    }
    pygame.font.init()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        reader = readers.get(path.suffix.lower())
        if reader is not None:
            check(f"asset {path.relative_to(root).as_posix()}", partial(reader, path))

    def presets() -> None:
        found = load_presets()
        _expect({"phone", "tablet"} <= set(found), f"presets: {sorted(found)}")
        for preset in found.values():
            for n in preset.stars:
                _expect(preset.make_board(n, seed=1).n == n, f"{preset.name} {n} stars")

    check("presets", presets)
    for folder in sorted(p for p in (root / "themes").iterdir() if p.is_dir()):
        check(f"theme {folder.name}", partial(load_theme, folder.name))

    def ui_theme() -> None:
        data = json.loads((root / "ui" / "theme.json").read_text(encoding="utf-8"))
        _expect(isinstance(data, dict) and "defaults" in data, "no defaults block")

    check("ui theme", ui_theme)
    check("fonts", lambda: _expect(len(list((root / "fonts").glob("*.ttf"))) >= 2, "Noto Sans regular and bold"))
    check("catalogs", _check_languages)


def _check_languages() -> None:
    from triangles import i18n

    langs = i18n.available_languages()
    _expect({"en", "ru", "ms", "vi"} <= set(langs), f"languages: {langs}")
    try:
        for lang in langs:
            i18n.set_language(lang)
            _expect(i18n.tr("app.title") != "app.title", f"{lang}: app.title untranslated")
            _expect(i18n.language_name(lang) != lang, f"{lang}: no language name")
    finally:
        i18n.set_language("en")


# -- rules and the computer -----------------------------------------------------------


def _check_rules(check: _Checks) -> None:
    from triangles.rules import Board, Game, IllegalMove

    square = [(0, 0), (100, 0), (100, 100), (0, 100)]

    def crossing_refused() -> None:
        g = Game(Board(square))
        g.play(0, 2)
        _expect(g.why_illegal(1, 3) == "crosses", f"B-D over A-C: {g.why_illegal(1, 3)}")
        try:
            g.play(1, 3)
        except IllegalMove as exc:
            _expect(exc.reason == "crosses", exc.reason)
        else:
            raise AssertionError("a crossing line was played")
        _expect(g.move_count == 1, "the refused line changed the game")

    def through_star_refused() -> None:
        g = Game(Board([(0, 0), (50, 50), (100, 100), (0, 100)], tolerance=0))
        _expect(g.why_illegal(0, 2) == "through_star", f"A-C through B: {g.why_illegal(0, 2)}")

    def star_inside_scores_nothing() -> None:
        g = Game(Board([(0, 0), (200, 0), (100, 200), (100, 70)]))
        for i, j in ((0, 1), (1, 2), (0, 2)):
            _expect(g.play(i, j) == [], f"{i}-{j} scored")
        _expect(g.scores == (0, 0), f"a triangle with a star inside scored: {g.scores}")

    def diagonal_scores_two() -> None:
        g = Game(Board(square))
        for i, j in ((0, 1), (1, 2), (2, 3), (3, 0)):
            g.play(i, j)
        closed = g.play(0, 2)
        _expect(len(closed) == 2, f"the diagonal closed {len(closed)} triangles")
        _expect(sum(g.scores) == 2, f"scores {g.scores}")

    check("rules: a crossing is refused", crossing_refused)
    check("rules: a line through a star is refused", through_star_refused)
    check("rules: a triangle with a star inside scores 0", star_inside_scores_nothing)
    check("rules: a square's diagonal scores 2", diagonal_scores_two)


def _check_computer(check: _Checks) -> None:
    import random

    from triangles.ai import choose_move
    from triangles.players import LEVEL_NAMES
    from triangles.rules import Board, Game

    def game_against(level: str) -> None:
        g = Game(Board.random(10, 300, 300, seed=11))
        rng = random.Random(5)
        while not g.is_over():
            if g.player == 1:
                move = choose_move(g, level, seed=g.move_count, time_limit=_MOVE_LIMIT)
                _expect(g.is_legal(*move), f"{level} chose an illegal line {move}")
            else:
                move = rng.choice(g.legal_moves())
            g.play(*move)
        _expect(g.move_count > 0, "no line was drawn")

    for level in LEVEL_NAMES:
        check(f"computer: a game against {level}", partial(game_against, level))


# -- records --------------------------------------------------------------------------


def _check_records(check: _Checks, folder: Path) -> None:
    from triangles.match import Match, MatchSettings
    from triangles.record import load_record, save_record
    from triangles.saves import load_session, save_session

    def round_trip() -> None:
        m = Match.new(MatchSettings(mode="hotseat", preset="phone", stars=24, seed=3))
        for _ in range(10):
            m.play(*m.game.legal_moves()[0])
        path = folder / "selftest-record.json"
        save_record(m.to_record(), path)
        again = Match.from_record(load_record(path))
        _expect(again.game.moves == m.game.moves, "the moves read back differ")
        _expect(again.game.scores == m.game.scores, "the scores read back differ")
        save_session(m)
        kept = load_session()
        _expect(kept is not None and kept.game.moves == m.game.moves, "the game in progress was not kept")

    check("records: write and read back", round_trip)


# -- the screens ----------------------------------------------------------------------


def _check_screens(check: _Checks) -> None:
    from triangles.launch import LaunchOptions
    from triangles.match import MatchSettings
    from triangles.ui.app import App, AppConfig

    holder: dict[str, Any] = {}

    def start() -> None:
        holder["app"] = App(LaunchOptions(print_ready=False), AppConfig(ai_delay=(0.0, 0.0), fps=1000))

    if not check("screens: the window starts", start):
        return
    app = holder["app"]
    nav = app.nav

    def frames(n: int = 3) -> None:
        for _ in range(n):
            app.step(1 / 60)

    def show(name: str, action: Callable[[], object], expect: str | None = None, close: bool = True) -> None:
        def go() -> None:
            action()
            frames()
            top = app.top
            _expect(top is not None, "nothing on screen")
            if expect is not None:
                _expect(type(top).__name__ == expect, f"{type(top).__name__} on screen, not {expect}")
            if close:
                nav.close(top)
                frames(1)

        check(f"screen: {name}", go)

    show("main menu", nav.show_menu, "MainMenuScene", close=False)
    show("new game", nav.show_new_game, "NewGameScene")
    show("open game", nav.show_open_game, "OpenGameScene")
    show("how to play", nav.show_howto, "HowToPlayScene")
    show("statistics", nav.show_stats, "StatisticsScene")
    show("settings", nav.show_settings, "SettingsScene")
    show("reset statistics?", nav.confirm_stats_reset)
    show("message", lambda: nav.message("selftest"), "MessageScene")
    # screens added later: every other show_* that needs no arguments
    covered = {"show_menu", "show_new_game", "show_open_game", "show_howto", "show_stats", "show_settings"}
    for name in sorted(dir(nav)):
        method = getattr(nav, name)
        if name.startswith("show_") and name not in covered and callable(method) and _no_arguments(method):
            show(name.removeprefix("show_").replace("_", " "), method)
    for preset, stars in (("tablet", 80), ("phone", 24)):
        settings = MatchSettings(mode="hotseat", preset=preset, stars=stars, seed=9)
        show(f"a game ({preset})", partial(nav.start_new, settings), "PlayScene", close=False)
    show("pause", nav.pause, "PauseScene", close=False)
    show("back to the game", nav.resume, "PlayScene", close=False)

    def finish() -> None:
        match = nav.current_match()
        _expect(match is not None, "no game on screen")
        play = app.top
        while not match.game.is_over():
            play.play(*match.game.legal_moves()[0])
            frames(1)
        frames()
        if type(app.top).__name__ != "FinalScene":
            nav.show_final(match)
            frames()
        holder["match"] = match

    show("final", finish, "FinalScene", close=False)
    if "match" in holder:
        show("review", lambda: nav.show_review(holder["match"]), "ReviewScene")
        if hasattr(nav, "show_keep_problem"):  # the game could not be kept: a box that stays
            show("game not kept", lambda: nav.show_keep_problem(holder["match"], "selftest", at_quit=False))

    def computer_moves() -> None:
        nav.start_new(MatchSettings(mode="ai", preset="phone", stars=24, seed=4, level="easy", computer_starts=True))
        match = nav.current_match()
        _expect(match is not None, "no game on screen")
        end = time.monotonic() + 120
        while match.game.move_count == 0 and time.monotonic() < end:
            app.step(1 / 60)
            time.sleep(0.005)
        _expect(match.game.move_count > 0, "the computer drew no line within 120 s")

    check("screen: the computer moves in the window", computer_moves)
    check("screens: the window closes", app.close)


# -- the whole walk -------------------------------------------------------------------


def run(verbose: bool = False) -> int:
    """Every check above; one line on stdout; 0 when all passed, else 1 (each failure on a line of its own)."""
    t0 = time.perf_counter()
    os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ["SDL_AUDIODRIVER"] = "dummy"
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    home = Path(tempfile.mkdtemp(prefix="triangles-selftest-"))
    saved_home = os.environ.get("TRIANGLES_HOME")
    os.environ["TRIANGLES_HOME"] = str(home / "home")
    check = _Checks(verbose)
    try:
        from triangles import i18n

        i18n.set_language("en")
        _check_assets(check)
        _check_rules(check)
        _check_computer(check)
        _check_records(check, home)
        _check_screens(check)
    except Exception as exc:  # a module that cannot even be imported
        check.failed.append(f"import: {type(exc).__name__}: {exc}")
        if verbose:
            traceback.print_exc()
    finally:
        if saved_home is None:
            os.environ.pop("TRIANGLES_HOME", None)
        else:
            os.environ["TRIANGLES_HOME"] = saved_home
        shutil.rmtree(home, ignore_errors=True)
    seconds = time.perf_counter() - t0
    total = check.passed + len(check.failed)
    if check.failed:
        print(f"triangles selftest: FAILED {len(check.failed)} of {total} checks ({seconds:.1f} s)")
        for line in check.failed:
            print(f"  failed: {line}")
        sys.stdout.flush()
        return 1
    print(f"triangles selftest: ok ({total} checks, {seconds:.1f} s)", flush=True)
    return 0
