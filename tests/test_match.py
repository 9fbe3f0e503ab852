"""The match as a session, without pygame: undo grouping, redo, tokens, records."""

from __future__ import annotations

import pytest

from triangles.match import Match, MatchSettings
from triangles.players import Player
from triangles.record import GameRecord, RecordError
from triangles.rules import Board, Game

SQUARE = [(0.0, 0.0), (100.0, 0.0), (100.0, 100.0), (0.0, 100.0)]  # A B C D counter-clockwise
YOU, CPU = Player("You"), Player("Computer", "computer", "hard")


def vs_computer(you_first: bool = True) -> Match:
    return Match(Game(Board(SQUARE)), (YOU, CPU) if you_first else (CPU, YOU))


def hotseat() -> Match:
    return Match(Game(Board(SQUARE)), (Player("Ann"), Player("Bob")))


def test_players_decide_the_mode_and_who_the_computer_is():
    m = vs_computer(you_first=False)
    assert m.mode == "ai" and m.human_side == 1 and m.level() == "hard"
    assert m.computer_to_move and m.is_computer(0) and not m.is_computer(1)
    h = hotseat()
    assert h.mode == "hotseat" and h.human_side is None and not h.computer_to_move


def test_undo_against_the_computer_takes_back_your_line_and_its_reply():
    m = vs_computer()
    m.play(0, 1)  # you
    m.play(1, 2)  # computer
    assert m.undo() == [(1, 2), (0, 1)]
    assert m.game.move_count == 0 and m.can_redo() and not m.can_undo()


def test_undo_never_takes_back_only_the_computers_lines():
    m = vs_computer(you_first=False)
    m.play(0, 1)  # the computer's first line
    assert not m.can_undo() and m.undo() == [] and m.game.move_count == 1


def test_undo_in_hotseat_takes_back_one_line_and_redo_puts_it_back():
    m = hotseat()
    m.play(0, 1)
    m.play(1, 2)
    assert m.undo() == [(1, 2)]
    assert m.game.moves == [(0, 1)] and m.game.player == 1
    assert m.redo() == [(1, 2)]
    assert m.game.moves == [(0, 1), (1, 2)] and not m.can_redo()


def test_redo_restores_a_whole_undo_group_and_a_new_line_clears_redo():
    m = vs_computer()
    for move in [(0, 1), (1, 2), (2, 3), (0, 3)]:
        m.play(*move)
    m.undo()
    m.undo()
    assert m.game.move_count == 0
    assert m.redo() == [(0, 1), (1, 2)]
    assert m.game.moves == [(0, 1), (1, 2)] and m.can_redo()
    m.play(0, 2)
    assert not m.can_redo() and m.redo() == []


def test_every_change_makes_a_new_position_token():
    m = hotseat()
    seen = {m.token}
    m.play(0, 1)
    seen.add(m.token)
    m.undo()
    seen.add(m.token)
    m.redo()
    seen.add(m.token)
    assert len(seen) == 4
    assert hotseat().token not in seen  # unique across matches too


def test_records_round_trip_players_and_moves():
    m = vs_computer()
    m.play(0, 1)
    m.play(1, 2)
    back = Match.from_record(GameRecord.from_game(m.game, players=m.players, preset="phone", seed=7))
    assert back.players == (YOU, CPU) and back.game.moves == m.game.moves
    assert back.preset == "phone" and back.seed == 7 and back.game.scores == m.game.scores
    assert m.to_record().players == m.players


def test_a_record_that_does_not_replay_names_the_move():
    rec = GameRecord(stars=SQUARE, tolerance=3.0, moves=[(0, 2), (1, 3)])
    with pytest.raises(RecordError, match="Move 2 "):
        Match.from_record(rec)


def test_new_and_rematch_keep_players_and_options():
    m = Match.new(
        MatchSettings(mode="ai", preset="phone", stars=24, seed=5, level="easy", extra_turn=True, computer_starts=True)
    )
    assert m.board.n == 24 and m.game.extra_turn and m.seed == 5 and m.preset == "phone"
    assert m.players[0].is_computer and m.players[0].level == "easy" and not m.players[1].is_computer
    m.play(*m.game.legal_moves()[0])
    r = m.rematch()
    assert r.game.move_count == 0 and r.players == m.players and r.board == m.board


def test_the_saved_games_summary_is_read_once_per_version_of_the_file(triangles_home, monkeypatch):
    """Start-up's check and every menu rebuild share one replay; a new save is seen at once."""
    import triangles.saves as saves
    from triangles.match import Match, MatchSettings

    m = Match.new(MatchSettings(mode="hotseat", preset="phone", stars=24, seed=5))
    m.play(*m.game.legal_moves()[0])
    saves.save_session(m)
    reads = []
    real = saves.load_session

    def counting():
        reads.append(1)
        return real()

    monkeypatch.setattr(saves, "load_session", counting)
    first = saves.session_summary()
    assert first is not None and first.lines == 1 and first.scores == (0, 0)
    assert saves.session_summary() is first and len(reads) == 1
    m.play(*m.game.legal_moves()[0])
    saves.save_session(m)
    second = saves.session_summary()
    assert second is not None and second.lines == 2 and len(reads) == 2
