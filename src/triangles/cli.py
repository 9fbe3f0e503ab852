"""Command line: ``triangles`` (play), ``triangles replay FILE``.

Errors the user can fix are one line on stderr and exit status 2, never a
traceback.  The game window is imported only when it is needed, so ``replay``
works without a display and without pygame starting up.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from triangles import __version__
from triangles.launch import LaunchOptions
from triangles.players import DEFAULT_LEVEL, LEVEL_NAMES, MODES

if TYPE_CHECKING:
    from triangles.record import GameRecord

__all__ = ["main"]


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and one line (its default prints usage too)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(2)


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="triangles", description="Triangles: draw lines between stars, close empty triangles.")
    p.add_argument("--version", action="version", version=f"triangles {__version__}")
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help="open the game window (the default)")
    _add_play_options(play)
    _add_play_options(p)

    rp = sub.add_parser("replay", help="check a game record, replay it and print the result")
    rp.add_argument("file", type=Path)
    rp.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def _add_play_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", help="device layout: phone or tablet")
    p.add_argument("--stars", type=int, help="number of stars (one of the preset's sizes)")
    p.add_argument("--seed", type=int, help="board seed (a whole number >= 0)")
    p.add_argument("--mode", choices=MODES, help="ai: against the computer; hotseat: two players")
    p.add_argument("--level", choices=LEVEL_NAMES, default=DEFAULT_LEVEL, help="computer level")
    p.add_argument("--extra-turn", action="store_true", help="move again after closing a triangle")
    p.add_argument("--computer-starts", action="store_true", help="the computer draws the first line")
    p.add_argument("--fullscreen", action="store_true", help="start fullscreen (F11 or Alt+Enter toggles)")
    p.add_argument("--open", dest="open_record", type=Path, help="open a saved game record")


def _play(args: argparse.Namespace) -> int:
    from triangles.presets import PresetError, get_preset

    if args.preset is not None or args.stars is not None:
        try:
            preset = get_preset(args.preset or "phone")
        except PresetError as exc:
            print(f"triangles: error: {exc}", file=sys.stderr)
            return 2
        if args.stars is not None and args.stars not in preset.stars:
            sizes = ", ".join(str(s) for s in preset.stars)
            print(f"triangles: error: --stars {args.stars}: the {preset.name} preset offers {sizes}", file=sys.stderr)
            return 2
    if args.seed is not None and args.seed < 0:
        print("triangles: error: --seed must be a whole number >= 0", file=sys.stderr)
        return 2
    options = LaunchOptions(
        preset=args.preset,
        stars=args.stars,
        seed=args.seed,
        mode=args.mode,
        level=args.level,
        extra_turn=args.extra_turn,
        computer_starts=args.computer_starts,
        fullscreen=args.fullscreen,
        open_record=args.open_record,
    )
    from triangles.ui.app import run

    return run(options)


def replay_summary(record: GameRecord) -> dict[str, Any]:
    """What ``triangles replay`` reports about a checked record (RecordError when a move is illegal)."""
    from triangles.match import Match

    match = Match.from_record(record)
    game = match.game
    names = [p.name for p in match.players]
    winner = game.winner()
    if not game.is_over():
        result = "unfinished"
    elif winner is None:
        result = "draw"
    else:
        result = f"{names[winner]} wins"
    return {
        "players": names,
        "scores": list(game.scores),
        "lines": game.move_count,
        "triangles": len(game.triangles),
        "over": game.is_over(),
        "winner": winner,
        "result": result,
        "to_move": None if game.is_over() else game.player,
    }


def _replay(args: argparse.Namespace) -> int:
    from triangles.record import RecordError, load_record

    try:
        record = load_record(args.file)
        summary = replay_summary(record)
    except RecordError as exc:
        print(f"triangles replay: {args.file}: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
        return 0
    n0, n1 = summary["players"]
    s0, s1 = summary["scores"]
    print(f"{n0}: {s0} triangle{'s' if s0 != 1 else ''}")
    print(f"{n1}: {s1} triangle{'s' if s1 != 1 else ''}")
    print(f"lines drawn: {summary['lines']}")
    if summary["over"]:
        print(f"result: {summary['result']}")
    else:
        print(f"result: unfinished, {summary['players'][summary['to_move']]} to move")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _build_parser().parse_args(argv)
    if args.command == "replay":
        return _replay(args)
    return _play(args)


if __name__ == "__main__":
    raise SystemExit(main())
