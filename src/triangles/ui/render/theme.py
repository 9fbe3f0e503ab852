"""Themes: every colour and style the renderer and HUD use, read from JSON.

Looks live in ``assets/themes/<name>/theme.json`` rather than in code so a theme
can be tuned (or a new one added) without touching the renderer.  The file is
checked field by field when loaded; a bad file raises :class:`ThemeError` whose
message names the offending field (``"stars.radius must be a number > 0"``), so
a typo fails loudly at start-up instead of drawing something odd later.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from triangles.file_messages import file_problem_text
from triangles.files import FileProblem, read_json
from triangles.paths import assets_dir

__all__ = [
    "Color",
    "RGBA",
    "Theme",
    "ThemeError",
    "load_theme",
    "theme_path",
    "BackgroundStyle",
    "StarStyle",
    "LineStyle",
    "TriangleStyle",
    "LastLineStyle",
    "BandStyle",
    "HintStyle",
    "FlashStyle",
    "HudStyle",
    "FontSizes",
    "PlayerStyle",
    "LINE_STYLES",
    "TRIANGLE_MARKS",
    "BACKGROUND_KINDS",
    "STAR_BLENDS",
]

Color = tuple[int, int, int]
RGBA = tuple[int, int, int, int]


class ThemeError(ValueError):
    """The theme file is missing or malformed; the message names the field."""


#: how a player's lines are stroked: one line, or dashes (so two players differ by more than hue)
LINE_STYLES = ("solid", "dashed")
#: what is drawn inside a player's triangles, over the fill (none, a dot, a ring, diagonal hatching)
TRIANGLE_MARKS = ("none", "dot", "ring", "hatch")
#: how the sky is made: glowing clouds and far stars, or paper with a fibre grain
BACKGROUND_KINDS = ("nebula", "paper")
#: how stars, rings and glows reach the board: light added (dark skies) or ink laid over (light paper)
STAR_BLENDS = ("add", "ink")


@dataclass(frozen=True)
class PlayerStyle:
    """One player's look: colour, line pattern and weight, and the mark inside their triangles."""

    name: str
    color: Color
    ui_color: Color  # their colour for text on the game's dark pygame_gui panels (final screen)
    line_style: str  # one of LINE_STYLES
    line_weight: float  # times lines.width
    dash: float  # design points (dashed lines)
    gap: float
    mark: str  # one of TRIANGLE_MARKS


@dataclass(frozen=True)
class BackgroundStyle:
    kind: str  # one of BACKGROUND_KINDS
    seed: int
    top: Color
    bottom: Color
    clouds: tuple[Color, ...]
    cloud_strength: float
    cloud_scale: float
    dust: Color
    dust_strength: float
    vignette: float
    far_stars_per_megapixel: float
    far_star_brightness: tuple[float, float]
    far_star_tints: tuple[Color, ...]


@dataclass(frozen=True)
class StarStyle:
    color: Color
    tints: tuple[Color, ...]
    radius: float  # design points
    glow_radius: float
    glow_color: Color
    glow_strength: float
    hover_color: Color
    selected_color: Color
    ring_radius: float
    ring_width: float
    blend: str  # one of STAR_BLENDS


@dataclass(frozen=True)
class LineStyle:
    width: float
    glow_width: float
    glow_alpha: float
    core_lighten: float


@dataclass(frozen=True)
class TriangleStyle:
    fill_alpha: float
    center_lighten: float


@dataclass(frozen=True)
class LastLineStyle:
    color: Color
    width: float
    glow_alpha: float
    glow_scale: float  # times lines.glow_width
    dot_radius: float


@dataclass(frozen=True)
class BandStyle:
    neutral: Color
    ok: Color
    bad: Color
    width: float
    dash: float
    gap: float


@dataclass(frozen=True)
class HintStyle:
    color: Color
    width: float
    dash: float
    gap: float


@dataclass(frozen=True)
class FlashStyle:
    color: Color
    duration: float  # seconds; the scene turns elapsed time into progress
    peak_alpha: float


@dataclass(frozen=True)
class FontSizes:
    small: int
    normal: int
    large: int
    title: int


@dataclass(frozen=True)
class HudStyle:
    text: Color
    text_dim: Color
    panel: Color
    panel_alpha: float
    panel_border: Color
    accent: Color
    veil: float  # times the dark veil's opacity behind menus and dialogs (more on a light board)
    font: str | None  # a font file inside the theme folder, or None for the default font
    font_sizes: FontSizes

    @property
    def panel_rgba(self) -> RGBA:
        return (*self.panel, round(255 * self.panel_alpha))


@dataclass(frozen=True)
class Theme:
    name: str
    players: tuple[PlayerStyle, PlayerStyle]
    background: BackgroundStyle
    stars: StarStyle
    lines: LineStyle
    triangles: TriangleStyle
    last_line: LastLineStyle
    band: BandStyle
    hint: HintStyle
    flash: FlashStyle
    hud: HudStyle
    folder: Path | None = None

    def font_path(self) -> Path | None:
        """The HUD font file, or None for pygame's default font."""
        if self.hud.font is None or self.folder is None:
            return None
        return self.folder / self.hud.font

    @property
    def player_colors(self) -> tuple[Color, Color]:
        return self.players[0].color, self.players[1].color

    @property
    def player_names(self) -> tuple[str, str]:
        return self.players[0].name, self.players[1].name

    @property
    def ui_player_colors(self) -> tuple[Color, Color]:
        """The players' colours for text on the dark pygame_gui panels (``assets/ui/theme.json``)."""
        return self.players[0].ui_color, self.players[1].ui_color

    def line_width(self, owner: int) -> float:
        """Width of ``owner``'s lines in design points."""
        return self.lines.width * self.players[owner].line_weight

    def line_reach(self) -> float:
        """How far (design points) any committed or last-move line reaches from its centre line."""
        widest = max(self.line_width(0), self.line_width(1), self.last_line.width)
        return widest / 2

    def seated(self, swap: bool) -> Theme:
        """This theme with the two players' looks exchanged when ``swap`` (see ``Match.colors_swapped``)."""
        if not swap:
            return self
        return dataclasses.replace(self, players=(self.players[1], self.players[0]))


# -- field readers: each takes the parent object and the dotted path ----------


class _Reader:
    """Reads typed fields from a JSON object and names the field in every error."""

    def __init__(self, data: object, path: str) -> None:
        if not isinstance(data, dict):
            raise ThemeError(f"{path or 'theme'} must be an object")
        self.data = data
        self.path = path

    def _f(self, key: str) -> str:
        return f"{self.path}.{key}" if self.path else key

    def get(self, key: str) -> object:
        if key not in self.data:
            raise ThemeError(f"{self._f(key)} is missing")
        return self.data[key]

    def sub(self, key: str) -> _Reader:
        return _Reader(self.get(key), self._f(key))

    def number(self, key: str, lo: float | None = None, hi: float | None = None, positive: bool = False) -> float:
        v = self.get(key)
        if not isinstance(v, (int, float)) or isinstance(v, bool) or v != v:
            raise ThemeError(f"{self._f(key)} must be a number, got {v!r}")
        if positive and v <= 0:
            raise ThemeError(f"{self._f(key)} must be a number > 0, got {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            raise ThemeError(f"{self._f(key)} must be between {lo} and {hi}, got {v!r}")
        return float(v)

    def integer(self, key: str, lo: int = 0) -> int:
        v = self.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or v < lo:
            raise ThemeError(f"{self._f(key)} must be a whole number >= {lo}, got {v!r}")
        return v

    def optional_string(self, key: str) -> str | None:
        return None if self.get(key) is None else self.string(key)

    def choice(self, key: str, options: tuple[str, ...]) -> str:
        v = self.get(key)
        if v not in options:
            raise ThemeError(f"{self._f(key)} must be one of {', '.join(options)}, got {v!r}")
        return str(v)

    def string(self, key: str) -> str:
        v = self.get(key)
        if not isinstance(v, str) or not v:
            raise ThemeError(f"{self._f(key)} must be a non-empty string, got {v!r}")
        return v

    def color(self, key: str) -> Color:
        return _color(self.get(key), self._f(key))

    def colors(self, key: str) -> tuple[Color, ...]:
        v = self.get(key)
        if not isinstance(v, list) or not v:
            raise ThemeError(f"{self._f(key)} must be a non-empty list of colours")
        return tuple(_color(c, f"{self._f(key)}[{i}]") for i, c in enumerate(v))

    def range(self, key: str) -> tuple[float, float]:
        v = self.get(key)
        if (
            isinstance(v, list)
            and len(v) == 2
            and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)
            and 0 <= v[0] <= v[1] <= 1
        ):
            return float(v[0]), float(v[1])
        raise ThemeError(f"{self._f(key)} must be [low, high] with 0 <= low <= high <= 1")


def _color(v: object, field: str) -> Color:
    """'#rrggbb' or [r, g, b] with 0..255 components."""
    if isinstance(v, str) and len(v) == 7 and v[0] == "#":
        try:
            return int(v[1:3], 16), int(v[3:5], 16), int(v[5:7], 16)
        except ValueError:
            pass
    elif (
        isinstance(v, list)
        and len(v) == 3
        and all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in v)
    ):
        return v[0], v[1], v[2]
    raise ThemeError(f"{field} must be a colour '#rrggbb' or [r, g, b], got {v!r}")


def theme_path(name: str) -> Path:
    return assets_dir() / "themes" / name / "theme.json"


def parse_theme(data: object, folder: Path | None = None) -> Theme:
    """Build a Theme from decoded JSON; ThemeError names the first bad field."""
    r = _Reader(data, "")
    if r.get("format") != "triangles-theme":
        raise ThemeError("format must be 'triangles-theme'")
    players = r.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise ThemeError("players must be a list of two players")
    pr = [_Reader(p, f"players[{i}]") for i, p in enumerate(players)]
    pstyles = (_player(pr[0]), _player(pr[1]))
    b, s, ln, t = r.sub("background"), r.sub("stars"), r.sub("lines"), r.sub("triangles")
    ll, bd, hn, fl, hd = r.sub("last_line"), r.sub("band"), r.sub("hint"), r.sub("flash"), r.sub("hud")
    fs = hd.sub("font_sizes")
    return Theme(
        name=r.string("name"),
        players=pstyles,
        background=BackgroundStyle(
            kind=b.choice("kind", BACKGROUND_KINDS),
            seed=b.integer("seed"),
            top=b.color("top"),
            bottom=b.color("bottom"),
            clouds=b.colors("clouds"),
            cloud_strength=b.number("cloud_strength", 0, 2),
            cloud_scale=b.number("cloud_scale", positive=True),
            dust=b.color("dust"),
            dust_strength=b.number("dust_strength", 0, 1),
            vignette=b.number("vignette", 0, 1),
            far_stars_per_megapixel=b.number("far_stars_per_megapixel", 0, 20000),
            far_star_brightness=b.range("far_star_brightness"),
            far_star_tints=b.colors("far_star_tints"),
        ),
        stars=StarStyle(
            color=s.color("color"),
            tints=s.colors("tints"),
            radius=s.number("radius", positive=True),
            glow_radius=s.number("glow_radius", positive=True),
            glow_color=s.color("glow_color"),
            glow_strength=s.number("glow_strength", 0, 2),
            hover_color=s.color("hover_color"),
            selected_color=s.color("selected_color"),
            ring_radius=s.number("ring_radius", positive=True),
            ring_width=s.number("ring_width", positive=True),
            blend=s.choice("blend", STAR_BLENDS),
        ),
        lines=LineStyle(
            width=ln.number("width", positive=True),
            glow_width=ln.number("glow_width", 0),
            glow_alpha=ln.number("glow_alpha", 0, 1),
            core_lighten=ln.number("core_lighten", 0, 1),
        ),
        triangles=TriangleStyle(
            fill_alpha=t.number("fill_alpha", 0, 1),
            center_lighten=t.number("center_lighten", 0, 1),
        ),
        last_line=LastLineStyle(
            color=ll.color("color"),
            width=ll.number("width", positive=True),
            glow_alpha=ll.number("glow_alpha", 0, 1),
            glow_scale=ll.number("glow_scale", 0, 10),
            dot_radius=ll.number("dot_radius", 0),
        ),
        band=BandStyle(
            neutral=bd.color("neutral"),
            ok=bd.color("ok"),
            bad=bd.color("bad"),
            width=bd.number("width", positive=True),
            dash=bd.number("dash", positive=True),
            gap=bd.number("gap", 0),
        ),
        hint=HintStyle(
            color=hn.color("color"),
            width=hn.number("width", positive=True),
            dash=hn.number("dash", positive=True),
            gap=hn.number("gap", 0),
        ),
        flash=FlashStyle(
            color=fl.color("color"),
            duration=fl.number("duration", positive=True),
            peak_alpha=fl.number("peak_alpha", 0, 1),
        ),
        hud=HudStyle(
            text=hd.color("text"),
            text_dim=hd.color("text_dim"),
            panel=hd.color("panel"),
            panel_alpha=hd.number("panel_alpha", 0, 1),
            panel_border=hd.color("panel_border"),
            accent=hd.color("accent"),
            veil=hd.number("veil", 0.5, 3),
            font=hd.optional_string("font"),
            font_sizes=FontSizes(
                small=fs.integer("small", 1),
                normal=fs.integer("normal", 1),
                large=fs.integer("large", 1),
                title=fs.integer("title", 1),
            ),
        ),
        folder=folder,
    )


def _player(p: _Reader) -> PlayerStyle:
    line = p.sub("line")
    style = line.choice("style", LINE_STYLES)
    dashed = style == "dashed"
    return PlayerStyle(
        name=p.string("name"),
        color=p.color("color"),
        ui_color=p.color("ui_color"),
        line_style=style,
        line_weight=line.number("weight", 0.25, 4),
        # dash and gap matter (and are required) only for dashed lines
        dash=line.number("dash", positive=True) if dashed else 0.0,
        gap=line.number("gap", positive=True) if dashed else 0.0,
        mark=p.choice("mark", TRIANGLE_MARKS),
    )


def load_theme(name: str = "nebula", path: Path | None = None) -> Theme:
    """Read and validate ``assets/themes/<name>/theme.json`` (or ``path``)."""
    path = Path(path) if path is not None else theme_path(name)
    try:
        data = read_json(path, 1_000_000)
    except FileProblem as exc:
        raise ThemeError(f"{path.parent.name}/{path.name}: {file_problem_text(exc)}") from None
    return parse_theme(data, path.parent)
