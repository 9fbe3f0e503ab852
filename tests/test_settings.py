"""The settings file: defaults, round trip, versioned and atomic, and never a crash on a bad file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from triangles import i18n, settings
from triangles.launch import LaunchOptions
from triangles.match import MatchSettings
from triangles.players import Player
from triangles.settings import (
    FORMAT,
    VERSION,
    Settings,
    SettingsStore,
    available_themes,
    hotseat_players,
    load_settings,
    save_settings,
    seat_name,
    settings_path,
)


@pytest.fixture(autouse=True)
def english():
    """Problems are read in English here; whatever a test switches to is undone."""
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def write(path: Path, data: object) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data) if not isinstance(data, str) else data, encoding="utf-8")


def versioned(**values: object) -> dict[str, object]:
    return {"format": FORMAT, "version": VERSION, **values}


def test_the_file_lives_in_the_config_folder(triangles_home):
    assert settings_path() == triangles_home / "config" / "settings.json"


def test_a_missing_file_gives_the_defaults_silently(tmp_path):
    s, problems = load_settings(tmp_path / "settings.json")
    assert problems == []
    assert s == Settings()
    assert s.language is None  # follow the system at first start
    assert s.theme == "nebula" and s.sound is True and 0 <= s.volume <= 100
    assert s.animations is True and s.howto_offered is False and s.fullscreen is False
    assert s.window_scale is None and s.player_names == ("", "")
    assert s.new_game == MatchSettings()
    assert s.names() == ("Player 1", "Player 2")


def test_round_trip_through_a_versioned_file(tmp_path):
    path = tmp_path / "config" / "settings.json"
    s = Settings(
        language="vi",
        sound=False,
        volume=35,
        animations=False,
        new_game=MatchSettings(mode="hotseat", preset="tablet", stars=120, level="hard", extra_turn=True),
        player_names=("Ann", "Bảo"),
        window_scale=125,
        fullscreen=True,
        howto_offered=True,
    )
    save_settings(s, path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "triangles-settings" and data["version"] == 1
    assert data["player_names"] == ["Ann", "Bảo"] and data["window_scale"] == 125
    back, problems = load_settings(path)
    assert problems == []
    assert back == s
    # "fit" is written as a word, not as a missing number
    save_settings(Settings(), path)
    assert json.loads(path.read_text(encoding="utf-8"))["window_scale"] == "fit"
    assert load_settings(path) == (Settings(), [])


def test_saving_is_atomic(tmp_path, monkeypatch):
    path = tmp_path / "settings.json"
    calls: list[Path] = []
    real = settings.write_text_atomic

    def spy(p, text):
        calls.append(Path(p))
        real(p, text)

    monkeypatch.setattr(settings, "write_text_atomic", spy)
    save_settings(Settings(volume=10), path)
    assert calls == [path]
    # a failure half-way (the rename) leaves the old file whole and no temporary file behind
    import os

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_settings(Settings(volume=99), path)
    assert load_settings(path)[0].volume == 10
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


@pytest.mark.parametrize(
    "content",
    ["{not json", "[1, 2]", json.dumps({"format": "triangles-record", "version": 1}), json.dumps(versioned(version=7))],
)
def test_a_malformed_file_is_kept_aside_and_gives_defaults_with_one_message(tmp_path, content):
    path = tmp_path / "settings.json"
    write(path, content)
    s, problems = load_settings(path)
    assert s == Settings()
    assert len(problems) == 1
    kept = list(tmp_path.glob("settings.unreadable-*.json"))
    assert len(kept) == 1 and kept[0].read_text(encoding="utf-8") == content
    assert not path.exists()
    text = problems[0].text()
    assert "could not be read" in text and "kept" in text and kept[0].name in problems[0].detail
    assert load_settings(path) == (Settings(), [])  # read once: the next start is quiet


def test_one_bad_value_falls_back_alone_with_one_message(tmp_path):
    path = tmp_path / "settings.json"
    write(path, versioned(volume=300, animations=False, player_names=["Ann", "Bob"], language="ru"))
    s, problems = load_settings(path)
    assert s.volume == Settings().volume
    assert s.animations is False and s.player_names == ("Ann", "Bob") and s.language == "ru"
    assert len(problems) == 1
    assert problems[0].text() == "The setting “Volume” could not be used and is back to its default."
    i18n.set_language("ru")
    assert "«Громкость»" in problems[0].text()  # made in the language shown when it is shown


def test_a_bad_new_game_choice_falls_back_alone(tmp_path):
    path = tmp_path / "settings.json"
    ng = {"mode": "hotseat", "preset": "tablet", "stars": 24, "level": "impossible", "extra_turn": True}
    write(path, versioned(new_game=ng))
    s, problems = load_settings(path)
    assert s.new_game.mode == "hotseat" and s.new_game.preset == "tablet" and s.new_game.extra_turn is True
    assert s.new_game.level == "medium" and s.new_game.stars is None  # 24 is a phone size, not a tablet one
    assert [p.text() for p in problems] == [
        "The setting “Stars” could not be used and is back to its default.",
        "The setting “Computer level” could not be used and is back to its default.",
    ]


@pytest.mark.parametrize(
    "field,value",
    [
        ("language", "xx"),
        ("language", 5),
        ("theme", "no-such-theme"),
        ("theme", "../nebula"),
        ("sound", "yes"),
        ("volume", True),
        ("volume", -1),
        ("animations", 0),
        ("window_scale", 110),
        ("window_scale", "huge"),
        ("player_names", ["only one"]),
        ("player_names", ["x" * 50, "y"]),
        ("fullscreen", None),
        ("howto_offered", "no"),
        ("new_game", "hard"),
    ],
)
def test_unknown_or_wrong_values_are_rejected(tmp_path, field, value):
    path = tmp_path / "settings.json"
    write(path, versioned(**{field: value}))
    s, problems = load_settings(path)
    assert s == Settings()
    assert len(problems) == 1, problems


def test_themes_and_languages_come_from_the_assets():
    assert "nebula" in available_themes()
    for lang in i18n.available_languages():
        assert Settings.from_dict(versioned(language=lang)) == (Settings(language=lang), [])


def test_unknown_keys_from_a_later_game_are_ignored(tmp_path):
    path = tmp_path / "settings.json"
    write(path, versioned(colour_blind=True, volume=20))
    assert load_settings(path) == (Settings(volume=20), [])


def test_a_read_only_folder_never_raises_and_is_reported_once(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the config folder should be")
    store = SettingsStore(blocker / "settings.json")
    assert store.settings == Settings() and store.take_problems() == []
    store.settings.volume = 5
    first = store.save()
    assert first is not None and "could not be saved" in first.text()
    assert store.save() is None  # once a session, not at every click
    # a read-only file system, the way the OS says it
    store2 = SettingsStore(tmp_path / "ok" / "settings.json")

    def read_only(path, text):
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(settings, "write_text_atomic", read_only)
    problem = store2.save()
    assert problem is not None and "Read-only file system" in problem.text()
    assert store2.save() is None


def test_the_store_hands_out_reading_problems_once(tmp_path):
    path = tmp_path / "settings.json"
    write(path, "garbage")
    store = SettingsStore(path)
    assert len(store.take_problems()) == 1
    assert store.take_problems() == []


def test_hotseat_names_and_default_names_in_the_language_on_screen():
    s = Settings(player_names=("  Ann ", ""))
    assert s.names() == ("Ann", "Player 2")
    assert hotseat_players(s) == (Player("Ann"), Player("Player 2"))
    # a record made in Russian shows its default names in English now; chosen names stay
    assert seat_name(Player("Игрок 1"), "hotseat") == "Player 1"
    assert seat_name(Player("Người chơi 2"), "hotseat") == "Player 2"
    assert seat_name(Player("Ann"), "hotseat") == "Ann"
    assert seat_name(Player("Вы"), "ai") == "You"
    assert seat_name(Player("Komputer", "computer", "hard"), "ai") == "Computer"
    i18n.set_language("ms")
    assert seat_name(Player("Player 1"), "hotseat") == i18n.tr("player.one") != "Player 1"


def test_command_line_choices_lie_over_the_remembered_ones():
    remembered = MatchSettings(mode="hotseat", preset="tablet", stars=120, level="easy", extra_turn=False)
    nothing = LaunchOptions().new_game_choices(remembered)
    assert nothing == remembered and nothing is not remembered
    cli = LaunchOptions(level="hard", extra_turn=True).new_game_choices(remembered)
    assert (cli.level, cli.extra_turn, cli.mode, cli.preset, cli.stars) == ("hard", True, "hotseat", "tablet", 120)
    # --stars without --preset is a phone size; the tablet's remembered size does not carry over
    phone = LaunchOptions(stars=60).new_game_choices(remembered)
    assert (phone.preset, phone.stars) == ("phone", 60)
    other = LaunchOptions(preset="phone").new_game_choices(remembered)
    assert (other.preset, other.stars) == ("phone", None)
    assert LaunchOptions().new_game_choices() == MatchSettings()
