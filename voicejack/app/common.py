"""What every `voicejack` subcommand shares: one-line mistakes with exit status 2, and loading a table file."""

from __future__ import annotations

import argparse
import sys
from typing import NoReturn

from voicejack.engine import GameState, Rules

EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells count it


class CommandParser(argparse.ArgumentParser):
    """argparse that reports a usage mistake on one line and exits with status 2 (0 after --help)."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_BAD_INPUT, f"{self.prog}: {message}\n")


def complain(prog: str, message: str) -> int:
    """Tell the user what is wrong, on stderr; the exit status for a bad input."""
    print(f"{prog}: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def load_table_or_complain(path: str, prog: str) -> GameState | None:
    """The table in ``path``, or None after saying on stderr why it cannot be loaded."""
    from voicejack.tablefile import TableFileError, load_table

    try:
        return load_table(path)
    except TableFileError as error:
        complain(prog, str(error))
        return None


def add_table_options(parser: argparse.ArgumentParser, *, timer: bool = True) -> None:
    """The table's choices every command that starts a match takes: players, teams, version, rule set, timer."""
    from voicejack.engine.rulesets import RULE_SET_NAMES

    parser.add_argument("--players", type=int, choices=(2, 4), default=4)
    parser.add_argument("--free-for-all", action="store_true", help="4 players, every player for themselves")
    parser.add_argument("--complex", action="store_true", help="the complex version (R31-R35; VoiceJack's rules only)")
    parser.add_argument("--rules", choices=RULE_SET_NAMES, default="voicejack",
                        help="the rule set: VoiceJack's own (default), karooty or online (shared/spec/variants.md)")
    if timer:
        parser.add_argument("--turn-seconds", type=int, metavar="N", default=None,
                            help="online rules only: the turn timer in seconds (default 40, 0 switches it off)")


def think_seconds(text: str) -> float:
    """--think's value: seconds above 0 (argparse turns the error into a one-line usage mistake)."""
    from voicejack.bots.expert import parse_expert_options

    try:
        return parse_expert_options(f"think={text.strip()}").think
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think needs a number of seconds above 0, like 0.5, not {text!r}") from None


def add_think_option(parser: argparse.ArgumentParser) -> None:
    """--think: the expert's budget for every bot:expert seat that does not set its own."""
    parser.add_argument("--think", type=think_seconds, metavar="SECONDS", default=None,
                        help="the most time a bot:expert seat thinks a move (default 1; a seat's own "
                             "bot:expert:think=S wins)")


def rules_from_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> Rules:
    """The table ``add_table_options`` asked for; a one-line usage error (status 2) for a table that cannot be."""
    from voicejack.engine import make_rules

    if args.free_for_all and args.players == 2:
        parser.error("--free-for-all needs 4 players (2 players never have partners anyway)")
    if args.complex and args.rules != "voicejack":
        parser.error(f"--complex is a version of VoiceJack's own rules; the {args.rules} rules have one version")
    if args.rules == "karooty" and (args.players != 4 or args.free_for_all):
        parser.error("the karooty rules are played by 4 players in teams only (KA1)")
    turn_seconds = getattr(args, "turn_seconds", None)
    if turn_seconds is not None and args.rules != "online":
        parser.error(f"--turn-seconds is for the online rules only; the {args.rules} rules have no turn timer")
    try:
        return make_rules(args.players, teams=not args.free_for_all, mode="complex" if args.complex else "regular",
                          rule_set=args.rules, turn_seconds=turn_seconds)
    except ValueError as error:
        parser.error(str(error))
