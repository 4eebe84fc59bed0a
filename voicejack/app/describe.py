"""`voicejack describe` and `voicejack board`: the narration of a table file, as text."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from voicejack.app.common import EXIT_BAD_INPUT, CommandParser, load_table_or_complain
from voicejack.engine import COLOURS
from voicejack.narration.narrator import Narrator, Verbosity

EXIT_USAGE = EXIT_BAD_INPUT


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.Namespace | int:
    """The arguments, or the exit status argparse chose (2 for a mistake, 0 after --help)."""
    try:
        return parser.parse_args(list(argv))
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else EXIT_USAGE


def describe_main(argv: Sequence[str]) -> int:
    parser = CommandParser(
        prog="voicejack describe",
        description="Print every legal move phrase of a table file with what the player to act would hear about it "
                    "(a move that ends like another is read once, as that one).",
    )
    parser.add_argument("table", metavar="TABLE.json")
    parser.add_argument("--brief", action="store_true", help="the brief wording, for experienced players")
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    state = load_table_or_complain(args.table, parser.prog)
    if state is None:
        return EXIT_USAGE
    narrator = Narrator(Verbosity.BRIEF if args.brief else Verbosity.FULL)
    lines = {move.phrase: text for move, text in narrator.describe_options(state, listener=state.turn)}
    for group in narrator.option_groups(state):
        for move in group[1:]:  # another order of a 7 split that ends the same: the player hears it once
            lines[move.phrase] = f"the same as {group[0].phrase}."
    for phrase in sorted(lines):
        print(f"{phrase}: {lines[phrase]}")
    return 0


def board_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack board", description="Print the board readout of a table file, one line per item.")
    parser.add_argument("table", metavar="TABLE.json")
    parser.add_argument("--brief", action="store_true", help="the brief wording, for experienced players")
    parser.add_argument(
        "--as", dest="listener", metavar="COLOUR", choices=COLOURS,
        help="read it to this player (they are 'you'); by default everybody is named",
    )
    args = _parse(parser, argv)
    if isinstance(args, int):
        return args
    state = load_table_or_complain(args.table, parser.prog)
    if state is None:
        return EXIT_USAGE
    if args.listener is not None and args.listener not in state.rules.seats:
        print(f"{parser.prog}: {args.listener} is not at this table", file=sys.stderr)
        return EXIT_USAGE
    narrator = Narrator(Verbosity.BRIEF if args.brief else Verbosity.FULL)
    for line in narrator.board(state, args.listener):
        print(line)
    return 0
