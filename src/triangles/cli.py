"""Command line: ``triangles`` (play), ``triangles replay FILE``.

Errors the user can fix are one line on stderr and exit status 2, never a
traceback.  The game window is imported only when it is needed, so ``replay``
works without a display and without pygame starting up.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from triangles import __version__
from triangles.i18n import detect_language, set_language, tr, trn
from triangles.launch import LaunchOptions
from triangles.players import LEVEL_NAMES, MODES
from triangles.warmup import WARMUP_CHILD

if TYPE_CHECKING:
    from triangles.record import GameRecord

__all__ = ["main"]


#: argparse's own English messages -> our catalog keys (argparse asks ``gettext`` for them)
_ARGPARSE_KEYS = {
    "usage: ": "argparse.usage",
    "positional arguments": "argparse.positional",
    "options": "argparse.options",
    "show this help message and exit": "argparse.help",
    "argument %(argument_name)s: %(message)s": "argparse.argument",
    "unrecognized arguments: %s": "argparse.unrecognized",
    "the following arguments are required: %s": "argparse.required",
    "expected one argument": "argparse.expected_one",
    "invalid %(type)s value: %(value)r": "argparse.invalid_value",
    "invalid choice: %(value)r (choose from %(choices)s)": "argparse.invalid_choice",
    "ambiguous option: %(option)s could match %(matches)s": "argparse.ambiguous",
}


def _argparse_gettext(msgid: str) -> str:
    """argparse's message in the player's language, back in argparse's ``%`` style.

    Why: argparse formats its messages with ``%`` after translating them, while
    our catalogs use ``{name}``; a translation whose placeholders do not match
    the original keeps argparse's English instead of breaking.
    """
    key = _ARGPARSE_KEYS.get(msgid)
    if key is None:
        return msgid
    specs = dict(re.findall(r"%\((\w+)\)([rs])", msgid))
    positional = msgid.count("%s")  # bare %s ("%(name)s" does not contain it)

    def spec(m: re.Match[str]) -> str:
        name = m.group(1)
        return f"%({name}){specs[name]}" if name in specs else "%s"

    text = re.sub(r"\{(\w+)\}", spec, tr(key).replace("%", "%%"))
    named = set(re.findall(r"%\((\w+)\)", text))
    if named != set(specs) or text.count("%s") != positional:
        return msgid
    return text


class _Parser(argparse.ArgumentParser):
    """argparse that exits with status 2 and one line (its default prints usage too)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(tr("cli.error", prog=self.prog, message=message) + "\n")
        raise SystemExit(2)


def _build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="triangles", description=tr("cli.description"))
    p.add_argument("--version", action="version", version=f"triangles {__version__}", help=tr("cli.version"))
    p.add_argument("--selftest", action="store_true", help=tr("cli.selftest"))
    sub = p.add_subparsers(dest="command")

    play = sub.add_parser("play", help=tr("cli.play"), description=tr("cli.play"))
    _add_play_options(play)
    _add_play_options(p)

    rp = sub.add_parser("replay", help=tr("cli.replay"), description=tr("cli.replay"))
    rp.add_argument("file", type=Path, help=tr("cli.file"))
    rp.add_argument("--json", action="store_true", help=tr("cli.json"))
    return p


def _add_play_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--preset", help=tr("cli.preset"))
    p.add_argument("--stars", type=int, help=tr("cli.stars"))
    p.add_argument("--seed", type=int, help=tr("cli.seed"))
    p.add_argument("--mode", choices=MODES, help=tr("cli.mode"))
    # default None (not given): the game then uses the remembered New game choices
    p.add_argument("--level", choices=LEVEL_NAMES, default=None, help=tr("cli.level"))
    p.add_argument("--level2", choices=LEVEL_NAMES, default=None, help=tr("cli.level2"))
    p.add_argument("--extra-turn", action="store_true", default=None, help=tr("cli.extra_turn"))
    p.add_argument("--computer-starts", action="store_true", default=None, help=tr("cli.computer_starts"))
    p.add_argument("--fullscreen", action="store_true", help=tr("cli.fullscreen"))
    p.add_argument("--open", dest="open_record", type=Path, help=tr("cli.open"))


def _play(args: argparse.Namespace) -> int:
    from triangles.presets import PresetError, get_preset, load_presets

    if args.preset is not None or args.stars is not None:
        try:
            preset = get_preset(args.preset or "phone")
        except PresetError:
            choices = ", ".join(sorted(load_presets()))
            _error(tr("cli.bad_preset", preset=args.preset, choices=choices))
            return 2
        if args.stars is not None and args.stars not in preset.stars:
            sizes = ", ".join(str(s) for s in preset.stars)
            _error(tr("cli.bad_stars", stars=args.stars, preset=preset.name, sizes=sizes))
            return 2
    if args.seed is not None and args.seed < 0:
        _error(tr("cli.bad_seed"))
        return 2
    options = LaunchOptions(
        preset=args.preset,
        stars=args.stars,
        seed=args.seed,
        mode=args.mode,
        level=args.level,
        level2=args.level2,
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
    if args.json:  # for programs: the same words in every language
        print(json.dumps(summary))
        return 0
    names = summary["players"]
    for name, score in zip(names, summary["scores"], strict=True):
        print(trn("cli.score", score, name=name))
    print(tr("cli.lines", n=summary["lines"]))
    if not summary["over"]:
        print(tr("cli.result_unfinished", name=names[summary["to_move"]]))
    elif summary["winner"] is None:
        print(tr("cli.result_draw"))
    else:
        print(tr("cli.result_wins", name=names[summary["winner"]]))
    return 0


def _error(message: str) -> None:
    print(tr("cli.error", prog="triangles", message=message), file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    if list(sys.argv[1:] if argv is None else argv) == [WARMUP_CHILD]:  # a bundle has no ``python -m``
        from triangles import warmup

        return warmup.child_main()
    from triangles.settings import saved_language

    set_language(saved_language() or detect_language())
    argparse._ = _argparse_gettext  # type: ignore[attr-defined]  # argparse's own words, translated
    args = _build_parser().parse_args(argv)
    if args.selftest:
        from triangles import selftest

        return selftest.run()
    if args.command == "replay":
        return _replay(args)
    return _play(args)


if __name__ == "__main__":
    raise SystemExit(main())
