"""Statistics without a window: counting, draws and streaks, once per game, the file on disk."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from triangles import stats as st
from triangles.match import Match, MatchSettings
from triangles.players import Player
from triangles.record import GameRecord, parse_record, read_record_text
from triangles.saves import load_session, save_session
from triangles.stats import (
    FORMAT,
    MAX_COUNTED,
    VERSION,
    FinishedGame,
    Statistics,
    StatisticsBook,
    StatisticsError,
    Tally,
    finished_game,
    load_statistics,
)


def play_out(match: Match, seed: int, upto: int | None = None) -> Match:
    """Random legal lines until the game is over (or ``upto`` lines are drawn)."""
    rng = random.Random(seed)
    while not match.game.is_over() and (upto is None or match.game.move_count < upto):
        match.play(*rng.choice(match.game.legal_moves()))
    return match


def ai_match(seed: int = 1, level: str = "easy", stars: int = 24) -> Match:
    return Match.new(MatchSettings(mode="ai", preset="phone", stars=stars, seed=seed, level=level))  # type: ignore[arg-type]


def finished(
    outcome: st.Outcome, gid: str, preset: str = "phone", stars: int = 24, level: str = "easy"
) -> FinishedGame:
    return FinishedGame(game_id=gid, mode="ai", preset=preset, stars=stars, level=level, outcome=outcome)  # type: ignore[arg-type]


@pytest.fixture
def book(triangles_home: Path) -> StatisticsBook:
    return StatisticsBook()


# -- figures ------------------------------------------------------------------------


def test_wins_losses_draws_and_the_win_rate_ignores_draws():
    s = Statistics()
    for k, outcome in enumerate(["win", "draw", "loss", "win", "draw"]):
        assert s.add(finished(outcome, f"g{k}"))  # type: ignore[arg-type]
    t = s.tally("phone", 24, "easy")
    assert (t.games, t.wins, t.losses, t.draws) == (5, 2, 1, 2)
    assert t.win_rate == pytest.approx(2 / 3)  # wins ÷ (wins + losses): the two draws count neither way
    assert Tally(games=2, draws=2).win_rate is None  # only draws: no rate at all, not 0 %
    assert Tally().win_rate is None


def test_streaks_a_draw_neither_extends_nor_breaks_and_a_loss_ends_it():
    t = Tally()
    for outcome, streak in [("win", 1), ("win", 2), ("draw", 2), ("win", 3), ("loss", 0), ("win", 1), ("draw", 1)]:
        t.add(outcome)  # type: ignore[arg-type]
        assert t.streak == streak, outcome
    assert t.best_streak == 3


def test_figures_are_kept_per_preset_stars_and_level():
    s = Statistics()
    s.add(finished("win", "a", "phone", 24, "easy"))
    s.add(finished("loss", "b", "phone", 24, "hard"))
    s.add(finished("win", "c", "phone", 60, "easy"))
    s.add(finished("draw", "d", "tablet", 120, "medium"))
    assert s.tally("phone", 24, "easy").wins == 1 and s.tally("phone", 24, "easy").games == 1
    assert s.tally("phone", 24, "hard").losses == 1
    assert s.tally("phone", 60, "easy").wins == 1
    assert s.tally("tablet", 120, "medium").draws == 1
    assert s.tally("tablet", 80, "easy").games == 0
    assert s.has_games("phone", 60) and not s.has_games("tablet", 80)
    assert s.last_played() == ("tablet", 120)
    s.add(finished("win", "e", "phone", 24, "easy"))
    assert s.last_played() == ("phone", 24)  # the most recent game, not the first one


def test_a_real_game_against_the_computer_counts_as_the_humans_result():
    for seed in range(1, 8):
        m = play_out(ai_match(seed), seed)
        got = finished_game(m, "phone")
        winner = m.game.winner()
        want = "draw" if winner is None else ("win" if winner == m.human_side else "loss")
        assert (got.mode, got.outcome, got.stars, got.level, got.counts) == ("ai", want, 24, "easy", True)


def test_computer_starting_puts_the_human_in_seat_two():
    m = Match.new(MatchSettings(mode="ai", stars=24, seed=3, level="hard", computer_starts=True))
    play_out(m, 4)
    got = finished_game(m, "phone")
    winner = m.game.winner()
    assert m.human_side == 1 and got.level == "hard"
    assert got.outcome == ("draw" if winner is None else "win" if winner == 1 else "loss")


def test_hotseat_counts_games_draws_and_wins_per_name():
    s = Statistics()
    h = s.hotseat
    base = dict(preset="phone", stars=24, level="medium")
    s.add(FinishedGame(game_id="1", mode="hotseat", winner=0, winner_name=None, **base))  # type: ignore[arg-type]
    s.add(FinishedGame(game_id="2", mode="hotseat", winner=1, winner_name="Anna", **base))  # type: ignore[arg-type]
    s.add(FinishedGame(game_id="3", mode="hotseat", winner=0, winner_name="Anna", **base))  # type: ignore[arg-type]
    s.add(FinishedGame(game_id="4", mode="hotseat", winner=None, **base))  # type: ignore[arg-type]
    assert (h.games, h.draws, h.seat_wins, h.wins_by_name) == (4, 1, [1, 0], {"Anna": 2})
    assert not s.ai, "hotseat games are not mixed with the games against the computer"


def test_hotseat_default_names_count_by_seat_and_own_names_by_name():
    winner: int | None = None
    for seed in range(5, 30):  # a decided game, for the names
        m = play_out(Match.new(MatchSettings(mode="hotseat", stars=24, seed=seed)), seed)
        winner = m.game.winner()
        if winner is not None:
            break
    assert winner is not None
    assert finished_game(m, "phone").winner_name is None  # "Player 1"/"Player 2": by seat
    m.players = (Player("Anna"), Player("Boris"))
    got = finished_game(m, "phone")
    assert (got.mode, got.winner, got.winner_name) == ("hotseat", winner, ["Anna", "Boris"][winner])


# -- once per game ----------------------------------------------------------------------


def test_the_same_game_id_is_counted_once():
    s = Statistics()
    assert s.add(finished("win", "same"))
    assert not s.add(finished("win", "same"))
    assert s.tally("phone", 24, "easy").games == 1


def test_counted_ids_are_bounded_oldest_first():
    s = Statistics()
    for k in range(MAX_COUNTED + 5):
        s.add(finished("draw", f"id{k}"))
    assert len(s.counted) == MAX_COUNTED and s.counted[0] == "id5" and s.counted[-1] == f"id{MAX_COUNTED + 4}"


def test_game_id_survives_save_and_load_and_a_rematch_gets_a_new_one():
    m = play_out(ai_match(2), 2, upto=6)
    rec = read_record_text(m.to_record().to_json())
    assert rec.game_id == m.game_id and Match.from_record(rec).game_id == m.game_id
    assert m.rematch().game_id != m.game_id
    assert Match.new(MatchSettings(stars=24, seed=2)).game_id != m.game_id


def test_older_records_without_an_id_still_load_with_a_stable_id():
    m = play_out(ai_match(2), 2, upto=4)
    data = m.to_record().to_dict()
    del data["id"]
    text = json.dumps(data)
    a, b = Match.from_record(read_record_text(text)), Match.from_record(read_record_text(text))
    assert a.game.moves == m.game.moves
    assert a.game_id == b.game_id and a.game_id.startswith("legacy-")
    data["id"] = 12  # a broken id is ignored like a missing one: the record still opens
    assert parse_record(data).game_id is None


def test_undo_past_the_end_and_replaying_to_the_end_does_not_count_again(book):
    m = play_out(ai_match(3), 3)
    assert book.count(m, "phone")
    while m.game.is_over():
        m.undo()
    assert not book.count(m, "phone")  # not over: never counted
    play_out(m, 99)  # to the end again (maybe another way)
    assert not book.count(m, "phone")
    assert book.stats.tally("phone", 24, "easy").games == 1


def test_review_or_showing_the_final_screen_again_does_not_count_again(book):
    m = play_out(ai_match(4), 4)
    assert book.count(m, "phone")
    assert not book.count(m, "phone")
    assert StatisticsBook().stats.tally("phone", 24, "easy").games == 1  # and so says the file


def test_a_reopened_finished_record_does_not_count(book, tmp_path):
    m = play_out(ai_match(5), 5)  # finished elsewhere (another machine): never counted here
    opened = Match.from_record(read_record_text(m.to_record().to_json()))
    assert opened.finished_when_opened
    assert not book.count(opened, "phone")
    assert book.stats.is_empty
    # undo past the end, keep it for Continue, come back, and finish it: still the same reopened game
    while opened.game.is_over():
        opened.undo()
    save_session(opened)
    again = load_session()
    assert again is not None and again.game_id == m.game_id and not again.finished_when_opened
    play_out(again, 6)
    assert not book.count(again, "phone")
    assert book.stats.is_empty


def test_a_game_continued_after_a_restart_counts_once(book):
    m = play_out(ai_match(6), 6, upto=5)
    save_session(m)  # the window closed mid-game
    cont = load_session()
    assert cont is not None and cont.game_id == m.game_id
    play_out(cont, 7)
    assert book.count(cont, "phone")
    assert not StatisticsBook().count(cont, "phone")  # another window, the same game: not again


def test_a_rematch_of_a_loaded_record_is_a_new_game_and_the_old_one_is_not_counted_again(book):
    m = play_out(ai_match(7), 7)
    assert book.count(m, "phone")
    loaded = Match.from_record(read_record_text(m.to_record().to_json()))
    assert not book.count(loaded, "phone")
    re = play_out(loaded.rematch(), 8)
    assert book.count(re, "phone")
    assert book.stats.tally("phone", 24, "easy").games == 2


def test_an_abandoned_game_is_not_counted(book):
    m = play_out(ai_match(8), 8, upto=5)
    assert not book.count(m, "phone")
    assert book.stats.is_empty and not book.path.exists()


def test_reset_clears_the_figures_but_not_the_counted_ids(book):
    m = play_out(ai_match(9), 9)
    book.count(m, "phone")
    book.reset()
    assert book.stats.is_empty
    assert not book.count(m, "phone")  # replaying an old game to its end still does not count
    assert StatisticsBook().stats.is_empty


# -- the file ---------------------------------------------------------------------------


def test_the_file_is_versioned_and_reads_back_the_same(book, triangles_home):
    for k, outcome in enumerate(["win", "win", "loss", "draw"]):
        book.stats.add(finished(outcome, f"x{k}", level="hard"))  # type: ignore[arg-type]
    book.stats.add(
        FinishedGame(game_id="h", mode="hotseat", preset="phone", stars=24, level="medium", winner=1, winner_name="Ана")
    )
    assert book.save()
    path = triangles_home / "statistics.json"
    assert book.path == path
    data = json.loads(path.read_text(encoding="utf-8"))
    assert (data["format"], data["version"]) == (FORMAT, VERSION) == ("triangles-statistics", 1)
    assert data["computer"][0] == {
        "preset": "phone", "stars": 24, "level": "hard",
        "games": 4, "wins": 2, "losses": 1, "draws": 1, "streak": 0, "best_streak": 2,
    }  # fmt: skip
    again = load_statistics(path)
    assert again.to_dict() == book.stats.to_dict()
    assert again.hotseat.wins_by_name == {"Ана": 1}


def test_the_write_is_atomic_a_failed_write_leaves_the_old_file(book, triangles_home, monkeypatch):
    book.stats.add(finished("win", "one"))
    assert book.save()
    path = triangles_home / "statistics.json"
    before = path.read_text()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    book.stats.add(finished("win", "two"))
    assert not book.save()
    assert path.read_text() == before  # the old figures, whole
    assert [p.name for p in triangles_home.iterdir()] == ["statistics.json"]  # no temporary file left


@pytest.mark.parametrize(
    "content",
    [
        b"{not json",
        b"\xff\xfe garbage",
        b'{"format": "triangles-statistics", "version": 99}',
        b'{"format": "something-else", "version": 1}',
        b'{"format": "triangles-statistics", "version": 1, "computer": [{"preset": "phone", "stars": 24, '
        b'"level": "easy", "games": 3, "wins": 1, "losses": 0, "draws": 0, "streak": 0, "best_streak": 0}]}',
        b'{"format": "triangles-statistics", "version": 1, "hotseat": {"games": -1}}',
        b"[]",
    ],
)
def test_an_unreadable_file_is_moved_aside_reported_once_and_counting_starts_fresh(triangles_home, content):
    path = triangles_home / "statistics.json"
    path.write_bytes(content)
    book = StatisticsBook()
    assert book.stats.is_empty
    kept = list(triangles_home.glob("statistics.unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == content  # kept, never deleted
    problems = book.take_problems()
    assert [(p.kind, p.detail) for p in problems] == [("unreadable", kept[0].name)]
    assert book.take_problems() == []  # once
    m = play_out(ai_match(10), 10)
    assert book.count(m, "phone")
    assert load_statistics(path).tally("phone", 24, "easy").games == 1  # a fresh, good file


def test_a_folder_that_cannot_be_written_never_raises_and_is_reported_once(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the data folder should be")
    monkeypatch.setenv("TRIANGLES_HOME", str(blocker))  # every write under it fails with an OSError
    book = StatisticsBook()
    m1 = play_out(ai_match(11), 11)
    assert book.count(m1, "phone")  # counted in memory for this window
    problems = book.take_problems()
    assert len(problems) == 1 and problems[0].kind == "write" and problems[0].detail
    m2 = play_out(ai_match(12), 12)
    assert book.count(m2, "phone")
    book.reset()
    assert book.take_problems() == []  # reported once, not after every game
    assert book.stats.is_empty


def test_a_read_only_folder_never_raises(triangles_home, monkeypatch):
    """The same as a real read-only folder (chmod does not stop root, so the denial is simulated)."""

    def denied(path: object, text: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(st, "write_text_atomic", denied)
    book = StatisticsBook()
    assert book.count(play_out(ai_match(13), 13), "phone")
    assert [p.detail for p in book.take_problems()] == ["Permission denied"]


def test_a_missing_file_is_simply_empty(book):
    assert book.stats.is_empty and book.take_problems() == []


def test_from_dict_rejects_inconsistent_figures():
    good = Statistics()
    good.add(finished("win", "a"))
    data = good.to_dict()
    data["computer"][0]["streak"] = 5
    with pytest.raises(StatisticsError, match="streak"):
        Statistics.from_dict(data)
    assert Statistics.from_dict(good.to_dict()).to_dict() == good.to_dict()


def test_records_keep_their_game_id_field():
    rec = GameRecord(stars=[(0, 0), (10, 0), (0, 10)], tolerance=3.0, moves=[], game_id="abc")
    assert rec.to_dict()["id"] == "abc"
    assert parse_record(rec.to_dict()).game_id == "abc"
