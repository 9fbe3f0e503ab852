"""Hostile and broken record files: refused in one line, quickly, in little memory, never changed.

The corpus holds the files a hostile user (or a bad disk) produces: absurd
nesting, huge counts, huge and tiny numbers, NaN and Infinity, wrong types,
other encodings, binary, empty, a folder, a device.  Each goes through the
record reader and ``triangles replay``; hypothesis then mutates a real record
and generates arbitrary JSON.  Time is bounded by pytest-timeout (a hang
fails the test; no wall-clock figure is asserted), memory by tracemalloc.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from triangles.cli import main
from triangles.record import MAX_BYTES, GameRecord, RecordError, load_record, read_record_text, save_record
from triangles.rules import Board, Game

#: what a refusal may never show the player
INTERNALS = ("np.float64", "Traceback", "Error:", "[crosses]", "[exists]", "[through_star]", "\n")


def valid() -> dict[str, Any]:
    g = Game(Board.random(24, 390, 660, seed=3))
    for _ in range(12):
        g.play(*g.legal_moves()[len(g.legal_moves()) // 2])
    return json.loads(GameRecord.from_game(g, preset="phone", seed=3).to_json())


def with_(**changes: Any) -> Callable[[], bytes]:
    def make() -> bytes:
        d = valid()
        d.update(changes)
        return json.dumps(d).encode()

    return make


def stars(n: int) -> list[list[float]]:
    return [[float(k % 60) * 19.0 + 1, float(k // 60) * 17.0 + 1] for k in range(n)]


CORPUS: dict[str, Callable[[], bytes]] = {
    "deep-nesting": lambda: b"[" * 200_000 + b"]" * 200_000,
    "deep-in-a-field": with_(players=json.loads("[" * 60 + "]" * 60)),
    "deep-objects": lambda: b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
    "4000-stars": with_(stars=stars(4000), moves=[]),
    "1500-stars": with_(stars=stars(1500), moves=[]),
    "3M-moves": lambda: json.dumps({**valid(), "moves": [[0, 1]] * 3_000_000}).encode(),
    "more-moves-than-lines": with_(moves=[[0, 1]] * 300),
    "huge-coordinate": with_(stars=[[1e308, 5.0], *stars(23)]),
    "tiny-coordinates": with_(stars=[[5e-324 * k, 0.0] for k in range(24)]),
    "nan-tolerance": lambda: json.dumps({**valid(), "tolerance": math.nan}).encode(),
    "infinite-star": lambda: json.dumps({**valid(), "stars": [[math.inf, 1.0], *stars(23)]}).encode(),
    "huge-tolerance": with_(tolerance=1e300),
    "negative-tolerance": with_(tolerance=-1),
    "huge-integer": with_(seed=10**400),
    "huge-move-index": with_(moves=[[0, 10**30]]),
    "negative-move-index": with_(moves=[[-1, 2]]),
    "float-move": with_(moves=[[0.5, 2]]),
    "bool-move": with_(moves=[[True, 2]]),
    "stars-not-pairs": with_(stars=[[1, 2, 3]] * 24),
    "stars-a-string": with_(stars="many"),
    "same-place": with_(stars=[[10.0, 10.0]] * 24),
    "two-stars": with_(stars=[[1.0, 1.0], [2.0, 2.0]], moves=[]),
    "players-wrong": with_(players=[{"name": 5}, {"name": "B"}]),
    "long-name": with_(players=[{"name": "x" * 10_000}, {"name": "B"}]),
    "version-string": with_(version="1"),
    "version-99": with_(version=99),
    "format-other": with_(format="chess"),
    "array": lambda: b"[1, 2, 3]",
    "number": lambda: b"42",
    "null": lambda: b"null",
    "empty": lambda: b"",
    "whitespace": lambda: b"   \n\t ",
    "binary": lambda: bytes(range(256)) * 64,
    "utf-16": lambda: json.dumps(valid()).encode("utf-16"),
    "latin-1": lambda: json.dumps({**valid(), "players": [{"name": "Zoë"}, {"name": "B"}]}, ensure_ascii=False).encode(
        "latin-1"
    ),
    "truncated": lambda: json.dumps(valid()).encode()[:-40],
    "too-large": lambda: b" " * (MAX_BYTES + 1),
}
#: files that are fine: a byte-order mark is not an error
ACCEPTED = {"bom": lambda: b"\xef\xbb\xbf" + json.dumps(valid()).encode()}


def _check_refusal(path: Path, before: bytes | None) -> str:
    tracemalloc.start()
    try:
        with pytest.raises(RecordError) as e:
            load_record(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    msg = str(e.value)
    assert msg and not any(bad in msg for bad in INTERNALS), msg
    assert peak < 64 * 2**20, f"{path.name}: {peak / 2**20:.0f} MB to refuse"
    if before is not None:
        assert path.read_bytes() == before, "reading changed the file"
    return msg


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", sorted(CORPUS))
def test_each_nasty_file_is_refused_in_one_line(name, tmp_path):
    path = tmp_path / f"{name}.json"
    path.write_bytes(CORPUS[name]())
    before = path.read_bytes()
    _check_refusal(path, before)


@pytest.mark.timeout(60)
def test_a_folder_a_device_and_a_missing_file_are_refused(tmp_path):
    assert "folder" in _check_refusal(tmp_path, None)
    assert "regular file" in _check_refusal(Path("/dev/zero"), None)
    assert "does not exist" in _check_refusal(tmp_path / "gone.json", None)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.json"
        os.mkfifo(fifo)
        assert "regular file" in _check_refusal(fifo, None)  # reading it would block forever


def test_a_byte_order_mark_is_fine(tmp_path):
    path = tmp_path / "bom.json"
    path.write_bytes(ACCEPTED["bom"]())
    assert load_record(path).moves


@pytest.mark.timeout(120)
@pytest.mark.parametrize("name", ["deep-nesting", "3M-moves", "binary", "4000-stars", "more-moves-than-lines"])
def test_replay_refuses_in_one_line_with_exit_2(name, tmp_path, capsys):
    path = tmp_path / f"{name}.json"
    path.write_bytes(CORPUS[name]())
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err
    assert err.startswith(f"triangles replay: {path}: ")


@pytest.mark.timeout(120)
def test_replay_of_a_device_and_deep_nesting_in_a_real_process(tmp_path):
    """What the issue saw: /dev/zero never returned, deep nesting printed a RecursionError traceback."""
    deep = tmp_path / "deep.json"
    deep.write_bytes(CORPUS["deep-nesting"]())
    for target in ("/dev/zero", str(deep)):
        proc = subprocess.run(
            [sys.executable, "-m", "triangles", "replay", target], capture_output=True, text=True, timeout=60
        )
        assert proc.returncode == 2 and "Traceback" not in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1


# -- generated files -----------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=40,
)
FIELDS = ["format", "version", "stars", "tolerance", "options", "players", "preset", "seed", "created", "moves"]


def _only_record_errors(text: str) -> None:
    try:
        rec = read_record_text(text)
    except RecordError as e:
        msg = str(e)
        assert msg and not any(bad in msg for bad in INTERNALS), msg
    else:
        assert isinstance(rec, GameRecord)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=json_values)
def test_arbitrary_json_is_refused_or_read_never_crashes(doc):
    _only_record_errors(json.dumps(doc))


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(field=st.sampled_from(FIELDS), value=json_values, drop=st.booleans())
def test_a_record_with_one_field_broken_is_refused_or_read(field, value, drop):
    d = valid()
    if drop:
        d.pop(field, None)
    else:
        d[field] = value
    _only_record_errors(json.dumps(d))


@settings(max_examples=200, deadline=None)
@given(cut=st.integers(0, 5000), junk=st.binary(max_size=30))
def test_a_damaged_file_is_refused_or_read(cut, junk, tmp_path_factory):
    raw = json.dumps(valid()).encode()
    damaged = raw[: cut % (len(raw) + 1)] + junk
    path = tmp_path_factory.mktemp("damaged") / "g.json"
    path.write_bytes(damaged)
    try:
        load_record(path)
    except RecordError as e:
        assert not any(bad in str(e) for bad in INTERNALS), str(e)
    assert path.read_bytes() == damaged


def test_records_written_by_the_game_stay_inside_every_limit(tmp_path):
    """The limits refuse no real game: a finished game on the largest preset loads back."""
    from triangles.presets import get_preset

    preset = get_preset("tablet")
    board = preset.make_board(max(preset.stars), 11)
    g = Game(board)
    while not g.is_over():
        g.play(*g.legal_moves()[0])
    save_record(GameRecord.from_game(g, preset="tablet", seed=11), tmp_path / "big.json")
    assert (tmp_path / "big.json").stat().st_size < MAX_BYTES // 4
    assert load_record(tmp_path / "big.json").moves == list(g.moves)


# -- the other files the game reads ------------------------------------------------------------

OTHER_NASTY = ["deep-nesting", "deep-objects", "binary", "empty", "utf-16", "truncated", "array", "too-large"]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", [*OTHER_NASTY, "a-folder"])
def test_nasty_settings_fall_back_to_defaults_and_are_kept_aside(name, tmp_path):
    from triangles.settings import Settings, load_settings

    path = tmp_path / "settings.json"
    if name == "a-folder":
        path.mkdir()
        content = None
    else:
        content = b" " * 300_000 if name == "too-large" else CORPUS[name]()
        path.write_bytes(content)
    settings, problems = load_settings(path)
    assert settings == Settings() and len(problems) == 1
    text = problems[0].text()
    assert text and not any(bad in text for bad in INTERNALS), text
    kept = list(tmp_path.glob("settings.unreadable-*"))
    assert len(kept) == 1 and not path.exists()
    if content is not None:
        assert kept[0].read_bytes() == content


@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", OTHER_NASTY)
def test_nasty_statistics_are_refused_in_words(name, tmp_path):
    from triangles.stats import StatisticsError, load_statistics

    path = tmp_path / "statistics.json"
    path.write_bytes(b" " * 2_000_001 if name == "too-large" else CORPUS[name]())
    with pytest.raises(StatisticsError) as e:
        load_statistics(path)
    assert str(e.value) and not any(bad in str(e.value) for bad in INTERNALS), str(e.value)


@pytest.mark.timeout(60)
def test_a_nasty_theme_or_presets_file_is_refused_in_one_line(tmp_path):
    from triangles.presets import PresetError, load_presets
    from triangles.ui.render.theme import ThemeError, load_theme

    for name in ("deep-nesting", "binary", "empty"):
        path = tmp_path / f"{name}.json"
        path.write_bytes(CORPUS[name]())
        with pytest.raises(PresetError) as pe:
            load_presets(path)
        with pytest.raises(ThemeError) as te:
            load_theme(path=path)
        for msg in (str(pe.value), str(te.value)):
            assert "\n" not in msg and "Traceback" not in msg and "Recursion" not in msg, msg
    with pytest.raises(PresetError):
        load_presets(Path("/dev/zero"))  # a device is never read


@pytest.mark.parametrize("damage", ["garbage", "truncated", "huge", "a-folder"])
def test_a_damaged_catalog_falls_back_to_english(tmp_path, monkeypatch, damage):
    """A broken .mo (bad bytes, cut short, absurdly large, a folder) shows English, never a crash."""
    import shutil

    from triangles import i18n
    from triangles.paths import assets_dir

    assets = tmp_path / "assets"
    shutil.copytree(assets_dir() / "i18n", assets / "i18n")
    mo = assets / "i18n" / "ru" / "LC_MESSAGES" / "triangles.mo"
    good = mo.read_bytes()
    mo.unlink()
    if damage == "garbage":
        mo.write_bytes(b"\xde\x12\x04\x95" + bytes(range(256)) * 4)  # the magic number, then nonsense
    elif damage == "truncated":
        mo.write_bytes(good[: len(good) // 3])
    elif damage == "huge":
        mo.write_bytes(good + b"\0" * (i18n.MAX_CATALOG_BYTES + 1))
    else:
        mo.mkdir()
    monkeypatch.setenv("TRIANGLES_ASSETS", str(assets))
    monkeypatch.setattr(i18n, "_translations", {})
    old = i18n.language()
    try:
        i18n.set_language("ru")
        assert i18n.tr("menu.new_game") == "New game"
    finally:
        i18n.set_language(old)
