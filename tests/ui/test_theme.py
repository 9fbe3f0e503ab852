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


# -- every shipped theme, and the schema's player styles -------------------------------

SHIPPED = ("nebula", "paper", "high_contrast")


def _relative_luminance(c) -> float:
    v = [x / 255 for x in c]
    lin = [x / 12.92 if x <= 0.04045 else ((x + 0.055) / 1.055) ** 2.4 for x in v]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _contrast(a, b) -> float:
    la, lb = sorted((_relative_luminance(a), _relative_luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def _gui_panel() -> tuple[int, int, int]:
    """The dark pygame_gui panel colour every theme's menus are drawn on (assets/ui/theme.json)."""
    from triangles.paths import assets_dir

    gui = json.loads((assets_dir() / "ui" / "theme.json").read_text(encoding="utf-8"))
    h = gui["defaults"]["colours"]["dark_bg"]
    return int(h[1:3], 16), int(h[3:5], 16), int(h[5:7], 16)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_theme_loads_and_text_reads(name) -> None:
    """Each theme loads; the HUD's text and the players' colours read on its own HUD panel (WCAG 4.5 / 3),
    and the players' ``ui_color`` read on the dark pygame_gui panels of the menus and final screen."""
    from triangles.settings import available_themes
    from triangles.ui.render.theme import LINE_STYLES, TRIANGLE_MARKS

    assert name in available_themes()
    th = load_theme(name)
    assert th.folder is not None and th.folder.name == name
    panel = th.hud.panel
    assert _contrast(th.hud.text, panel) >= 7.0
    assert _contrast(th.hud.text_dim, panel) >= 4.5
    gui = _gui_panel()
    for p in th.players:
        assert p.line_style in LINE_STYLES and p.mark in TRIANGLE_MARKS
        assert _contrast(p.color, panel) >= 3.0, f"{name}: {p.name} on the HUD panel"
        assert _contrast(p.ui_color, gui) >= 4.5, f"{name}: {p.name}'s ui_color on the dark menus"


def test_paper_is_light_ink_on_paper() -> None:
    th = load_theme("paper")
    assert th.background.kind == "paper" and th.stars.blend == "ink"
    assert _relative_luminance(th.background.top) > 0.8 and _relative_luminance(th.background.bottom) > 0.75
    assert _relative_luminance(th.stars.color) < 0.03  # dark ink stars
    for c in th.player_colors:
        assert _contrast(c, th.background.bottom) >= 4.5  # ink lines read on the paper


def test_high_contrast_players_differ_by_more_than_hue() -> None:
    th = load_theme("high_contrast")
    a, b = th.players
    assert a.line_style != b.line_style or max(a.line_weight, b.line_weight) / min(a.line_weight, b.line_weight) >= 1.4
    assert max(a.line_weight, b.line_weight) / min(a.line_weight, b.line_weight) >= 1.4  # and in weight
    assert a.mark != b.mark and "none" not in (a.mark, b.mark)
    # no red/green pair carries meaning: players, and the rubber band's legal / refused colours
    for x, y in ((a.color, b.color), (th.band.ok, th.band.bad)):
        kinds = {_red_or_green(x), _red_or_green(y)}
        assert kinds != {"red", "green"}, (x, y)


def _red_or_green(c) -> str | None:
    h, _, s = colorsys.rgb_to_hls(*(v / 255 for v in c))
    if s < 0.25:
        return None
    deg = h * 360
    if deg >= 330 or deg < 20:
        return "red"
    if 75 <= deg < 165:
        return "green"
    return None


def test_seated_swaps_the_whole_look() -> None:
    th = load_theme("high_contrast")
    sw = th.seated(True)
    assert sw.players == th.players[::-1]
    assert sw.player_colors == th.player_colors[::-1] and sw.line_width(0) == th.line_width(1)
    assert th.seated(False) is th


@pytest.mark.parametrize(
    "path, value, field",
    [
        (("players", 0, "line", "style"), "wavy", "players[0].line.style"),
        (("players", 1, "line", "weight"), 0, "players[1].line.weight"),
        (("players", 0, "mark"), "star", "players[0].mark"),
        (("players", 0, "ui_color"), "red", "players[0].ui_color"),
        (("background", "kind"), "sky", "background.kind"),
        (("stars", "blend"), "multiply", "stars.blend"),
    ],
)
def test_new_fields_are_validated(tmp_path, raw, path, value, field) -> None:
    data = copy.deepcopy(raw)
    d = data
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value
    with pytest.raises(ThemeError) as ei:
        load_theme(path=_write(tmp_path, data))
    assert field in str(ei.value)


def test_dashed_lines_need_dash_and_gap(tmp_path, raw) -> None:
    data = copy.deepcopy(raw)
    data["players"][1]["line"] = {"style": "dashed", "weight": 1.0, "dash": 6}
    with pytest.raises(ThemeError, match=r"players\[1\]\.line\.gap is missing"):
        load_theme(path=_write(tmp_path, data))
    data["players"][1]["line"]["gap"] = 3
    th = load_theme(path=_write(tmp_path, data))
    assert th.players[1].line_style == "dashed" and (th.players[1].dash, th.players[1].gap) == (6.0, 3.0)


# -- in the running game: a broken theme falls back with a message; switching restyles at once ---


def _broken_paper(monkeypatch, tmp_path) -> None:
    """Make the shipped Paper theme read as a broken file (the real asset is left alone)."""
    import triangles.ui.render.theme as theme_mod

    bad = tmp_path / "paper" / "theme.json"
    bad.parent.mkdir()
    bad.write_text('{"format": "triangles-theme", "name": "Paper"', encoding="utf-8")
    real = theme_mod.theme_path
    monkeypatch.setattr(theme_mod, "theme_path", lambda name: bad if name == "paper" else real(name))


@pytest.mark.parametrize("lang, words", [("en", "could not be used"), ("ru", "не удалось использовать")])
def test_a_broken_theme_at_start_says_so_and_falls_back_to_nebula(launch, monkeypatch, tmp_path, lang, words):
    from triangles import i18n
    from triangles.settings import settings_path
    from triangles.ui.scenes.message import MessageScene

    _broken_paper(monkeypatch, tmp_path)
    settings_path().parent.mkdir(parents=True, exist_ok=True)
    settings_path().write_text(
        json.dumps({"format": "triangles-settings", "version": 1, "theme": "paper", "language": lang}),
        encoding="utf-8",
    )
    try:
        d = launch()
        assert d.app.theme.name == "Nebula"
        assert isinstance(d.scene, MessageScene)
        assert words in d.scene.text and "JSON" in d.scene.text
        assert i18n.tr("settings.theme.paper") in d.scene.text
    finally:
        i18n.set_language("en")


def test_choosing_a_broken_theme_in_settings_says_so(launch, monkeypatch, tmp_path):
    from triangles.ui.scenes.message import MessageScene

    _broken_paper(monkeypatch, tmp_path)
    d = launch()
    d.app.nav.show_settings()
    d.frames(2)
    d.app.set_theme("paper")
    d.frames(2)
    assert d.app.theme.name == "Nebula"
    assert isinstance(d.scene, MessageScene) and "Paper" in d.scene.text


@pytest.mark.parametrize("computer_starts", [False, True])
def test_switching_theme_restyles_the_running_game_at_once(launch, computer_starts):
    """The board, HUD, final screen and review on screen take the new theme; the person keeps their side's look."""
    import numpy as np
    import pygame

    d = launch(preset="phone", stars=24, seed=3, mode="ai", computer_starts=computer_starts)
    play = d.play_scene()
    assert play is not None
    d.until(lambda: not play.match.computer_to_move, timeout=10)
    d.frames(3)
    swapped = play.match.colors_swapped
    assert swapped == computer_starts
    before = pygame.surfarray.array3d(d.app.surface).mean()
    for name in ("paper", "high_contrast", "nebula", "paper"):
        d.app.set_theme(name)
        d.frames(2)
        want = load_theme(name).seated(swapped)
        assert play.view.theme == want and play.hud.theme == want
        human = play.match.human_side
        assert play.view.theme.players[human] == load_theme(name).players[0]  # the person keeps the first look
    after = pygame.surfarray.array3d(d.app.surface).mean()
    assert after > before + 60, "the board on screen is now light paper"
    board = np.asarray(pygame.surfarray.array3d(d.app.surface))
    x, y, w, h = d.app.viewport.board_screen_rect
    assert board[x + w // 2 - 20 : x + w // 2 + 20, y + h // 2 - 20 : y + h // 2 + 20].mean() > 150
