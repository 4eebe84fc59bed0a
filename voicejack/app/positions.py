"""Position tools: `voicejack new`, `voicejack moves`, `voicejack apply`.

A user can set up any position by hand in a table file, list its legal
moves and step through a whole match, one phrase at a time.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from voicejack.app.common import (
    EXIT_BAD_INPUT,
    EXIT_ILLEGAL,
    CommandParser,
    add_table_options,
    complain,
    load_table_or_complain,
    rules_from_options,
)
from voicejack.engine import PhraseError, apply_move, find_move, legal_phrases, new_game
from voicejack.tablefile import save_table


def new_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack new", description="Write a fresh table file after the first deal.")
    add_table_options(parser)
    parser.add_argument("--seed", type=int, default=None, help="seed for the dealer draw and every shuffle")
    parser.add_argument("--out", required=True, metavar="TABLE.json")
    args = parser.parse_args(argv)
    rules = rules_from_options(parser, args)
    seed = args.seed if args.seed is not None else _fresh_seed()
    state, _ = new_game(rules, seed=seed)
    try:
        save_table(state, args.out)
    except OSError as error:
        return complain(parser.prog, f"cannot write {args.out}: {error.strerror}")
    return 0


def _fresh_seed() -> int:
    import secrets

    return secrets.randbelow(2**31)


def moves_main(argv: Sequence[str]) -> int:
    parser = CommandParser(prog="voicejack moves", description="Print the legal move phrases of the player to act, sorted.")
    parser.add_argument("table", metavar="TABLE.json")
    args = parser.parse_args(argv)
    state = load_table_or_complain(args.table, parser.prog)
    if state is None:
        return EXIT_BAD_INPUT
    if state.winner is not None:
        print(f"voicejack: the match is over ({'+'.join(state.winner)} won): no move is offered", file=sys.stderr)
    for phrase in legal_phrases(state):
        print(phrase)
    return 0


def apply_main(argv: Sequence[str]) -> int:
    parser = CommandParser(
        prog="voicejack apply",
        description="Apply one legal move and say what happened. The table file is updated unless --out names another file.",
    )
    parser.add_argument("table", metavar="TABLE.json")
    parser.add_argument("phrase", metavar="PHRASE", help='a canonical move phrase, e.g. "play nine red two"')
    parser.add_argument("--out", metavar="NEW.json", help="write the new table here and leave TABLE.json as it was")
    parser.add_argument("--brief", action="store_true", help="brief narration")
    args = parser.parse_args(argv)
    state = load_table_or_complain(args.table, parser.prog)
    if state is None:
        return EXIT_BAD_INPUT
    try:
        move = find_move(state, args.phrase)
    except PhraseError as error:
        legal = legal_phrases(state)
        lines = [f"voicejack apply: {error}."]
        if legal:
            lines.append(f"Legal moves for {state.turn}:")
            lines.extend(f"  {phrase}" for phrase in legal)
        print("\n".join(lines), file=sys.stderr)
        return EXIT_ILLEGAL
    from voicejack.narration import Narrator, Verbosity

    before = state.copy()
    events = apply_move(state, move)
    narrator = Narrator(verbosity=Verbosity.BRIEF if args.brief else Verbosity.FULL)
    out = args.out or args.table
    try:
        save_table(state, out)
    except OSError as error:
        return complain(parser.prog, f"cannot write {out}: {error.strerror}; nothing was changed")
    for sentence in narrator.outcome(before, events, state, listener=None):
        print(sentence)
    return 0
