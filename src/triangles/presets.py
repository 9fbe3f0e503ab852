"""Device layout presets (phone, tablet), read from ``assets/presets.json``.

A preset is a window size in logical points, the board rectangle inside it
(board units are these points, so a 120-star phone board and a 120-star tablet
board differ), and the star counts offered on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from triangles.file_messages import file_problem_text
from triangles.files import FileProblem, read_json
from triangles.paths import assets_dir

__all__ = ["Preset", "PresetError", "load_presets", "get_preset", "DEFAULT_TOLERANCE"]

DEFAULT_TOLERANCE = 3.0


class PresetError(ValueError):
    """The presets file is missing or malformed; the message names the field."""


@dataclass(frozen=True)
class Preset:
    name: str
    label: str
    window: tuple[int, int]
    board: tuple[float, float, float, float]  # x, y, width, height inside the window
    stars: tuple[int, ...]
    default_stars: int
    tolerance: float

    @property
    def board_size(self) -> tuple[float, float]:
        return self.board[2], self.board[3]

    def make_board(self, stars: int | None = None, seed: int = 0):
        """A seeded board of this preset, in its board units."""
        from triangles.rules import Board

        n = self.default_stars if stars is None else stars
        return Board.random(n, self.board[2], self.board[3], seed, self.tolerance)


def _num_list(value: object, field: str, length: int | None = None) -> list[float]:
    if not isinstance(value, list) or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value):
        raise PresetError(f"{field} must be a list of numbers")
    if length is not None and len(value) != length:
        raise PresetError(f"{field} must have {length} numbers, got {len(value)}")
    return [float(v) for v in value]


def load_presets(path: Path | None = None) -> dict[str, Preset]:
    """Read and check every preset; PresetError names the first bad field."""
    path = path or assets_dir() / "presets.json"
    try:
        data = read_json(path, 256_000)
    except FileProblem as exc:
        raise PresetError(f"{Path(path).name}: {file_problem_text(exc)}") from None
    if not isinstance(data, dict) or data.get("format") != "triangles-presets":
        raise PresetError(f"{path}: format must be 'triangles-presets'")
    tol = data.get("tolerance", DEFAULT_TOLERANCE)
    if not isinstance(tol, (int, float)) or isinstance(tol, bool) or tol < 0:
        raise PresetError("tolerance must be a number >= 0")
    raw = data.get("presets")
    if not isinstance(raw, dict) or not raw:
        raise PresetError("presets must be a non-empty object")
    out: dict[str, Preset] = {}
    for name, p in raw.items():
        f = f"presets.{name}"
        if not isinstance(p, dict):
            raise PresetError(f"{f} must be an object")
        window = _num_list(p.get("window"), f"{f}.window", 2)
        board = _num_list(p.get("board"), f"{f}.board", 4)
        stars = _num_list(p.get("stars"), f"{f}.stars")
        if not stars or any(s < 3 or s != int(s) for s in stars):
            raise PresetError(f"{f}.stars must be whole numbers >= 3")
        if min(window) <= 0 or board[2] <= 0 or board[3] <= 0:
            raise PresetError(f"{f}: window and board sizes must be positive")
        if board[0] < 0 or board[1] < 0 or board[0] + board[2] > window[0] or board[1] + board[3] > window[1]:
            raise PresetError(f"{f}.board must lie inside the window")
        default = p.get("default_stars", int(stars[0]))
        if default not in stars:
            raise PresetError(f"{f}.default_stars must be one of {f}.stars")
        label = p.get("label", name.title())
        if not isinstance(label, str):
            raise PresetError(f"{f}.label must be a string")
        out[name] = Preset(
            name=name,
            label=label,
            window=(int(window[0]), int(window[1])),
            board=(board[0], board[1], board[2], board[3]),
            stars=tuple(int(s) for s in stars),
            default_stars=int(default),
            tolerance=float(tol),
        )
    return out


_cache: dict[str, Preset] | None = None


def get_preset(name: str) -> Preset:
    """The named preset; PresetError listing the known names when it does not exist."""
    global _cache
    if _cache is None:
        _cache = load_presets()
    try:
        return _cache[name]
    except KeyError:
        raise PresetError(f"unknown preset {name!r}; choose one of {', '.join(sorted(_cache))}") from None
