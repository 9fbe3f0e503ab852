"""Theme loading and validation: the shipped Nebula theme, and bad files naming the field."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import colorsys  # noqa: E402
import copy  # noqa: E402
import json  # noqa: E402
from pathlib import Path  # noqa: E402

import pytest  # noqa: E402

from triangles.ui.render import Theme, ThemeError, load_theme  # noqa: E402
from triangles.ui.render.theme import theme_path  # noqa: E402


def _hue(c) -> float:
    return colorsys.rgb_to_hsv(*(v / 255 for v in c))[0]


@pytest.fixture(scope="module")
def raw() -> dict:
    return json.loads(theme_path("nebula").read_text(encoding="utf-8"))


def test_nebula_loads() -> None:
    th = load_theme()
    assert isinstance(th, Theme)
    assert th.name == "Nebula"
    p1, p2 = th.player_colors
    assert 0.0 <= _hue(p1) < 0.09, "player 1 is red-orange"
    assert 0.55 < _hue(p2) < 0.7, "player 2 is blue"
    assert len(th.player_names) == 2
    assert 0 < th.triangles.fill_alpha < 1
    assert th.hud.font_sizes.small < th.hud.font_sizes.title
    assert len(th.hud.panel_rgba) == 4
    font = th.font_path()
    assert font is None or font.exists()


def test_theme_is_frozen() -> None:
    th = load_theme()
    with pytest.raises(AttributeError):
        th.name = "x"  # type: ignore[misc]


def _write(tmp_path: Path, data: object) -> Path:
    p = tmp_path / "theme.json"
    p.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return p


def test_bad_json(tmp_path) -> None:
    with pytest.raises(ThemeError, match="not valid JSON"):
        load_theme(path=_write(tmp_path, "{ nope"))


def test_missing_file(tmp_path) -> None:
    with pytest.raises(ThemeError, match="does not exist"):
        load_theme(path=tmp_path / "nothing.json")
    with pytest.raises(ThemeError):
        load_theme("no-such-theme")


def test_theme_error_is_value_error() -> None:
    assert issubclass(ThemeError, ValueError)


@pytest.mark.parametrize(
    "path, field",
    [
        (("stars", "radius"), "stars.radius"),
        (("background", "clouds"), "background.clouds"),
        (("hud", "font_sizes", "title"), "hud.font_sizes.title"),
        (("band", "ok"), "band.ok"),
        (("lines",), "lines"),
        (("name",), "name"),
    ],
)
def test_missing_field_is_named(tmp_path, raw, path, field) -> None:
    data = copy.deepcopy(raw)
    d = data
    for k in path[:-1]:
        d = d[k]
    del d[path[-1]]
    with pytest.raises(ThemeError) as ei:
        load_theme(path=_write(tmp_path, data))
    assert field in str(ei.value)
    assert "missing" in str(ei.value)


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("stars", "radius"), -1, "stars.radius"),
        (("stars", "radius"), "big", "stars.radius"),
        (("triangles", "fill_alpha"), 1.5, "triangles.fill_alpha"),
        (("band", "bad"), "#12345", "band.bad"),
        (("band", "bad"), [300, 0, 0], "band.bad"),
        (("background", "clouds"), [], "background.clouds"),
        (("background", "far_star_brightness"), [0.9, 0.1], "background.far_star_brightness"),
        (("hud", "font_sizes", "small"), 0, "hud.font_sizes.small"),
        (("players",), [{"name": "a", "color": "#ffffff"}], "players"),
        (("format",), "something-else", "format"),
    ],
)
def test_bad_value_is_named(tmp_path, raw, path, value, field) -> None:
    data = copy.deepcopy(raw)
    d = data
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    with pytest.raises(ThemeError) as ei:
        load_theme(path=_write(tmp_path, data))
    assert field in str(ei.value)


def test_bad_player_colour_is_named(tmp_path, raw) -> None:
    data = copy.deepcopy(raw)
    data["players"][1]["color"] = "blue"
    with pytest.raises(ThemeError, match=r"players\[1\]\.color"):
        load_theme(path=_write(tmp_path, data))


def test_colour_lists_accepted(tmp_path, raw) -> None:
    data = copy.deepcopy(raw)
    data["players"][0]["color"] = [250, 90, 40]
    assert load_theme(path=_write(tmp_path, data)).player_colors[0] == (250, 90, 40)
