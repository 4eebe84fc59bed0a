"""`voicejack hear TABLE.json "TEXT" ...`: what the game would do on hearing TEXT.

Prints exactly one line per utterance: ``move: <phrase>``, ``confirm:
<phrase>``, ``ask: <question>`` (followed by its numbered choices),
``command: <name>`` or ``not understood: <reason>``. Several TEXTs are
heard in turn as one conversation, so "seven" "red one" "five" walks
through the 7's questions. ``--wav FILE`` recognises a recording with the
grammar of the moment instead of reading TEXT.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from voicejack.app.common import load_table_or_complain
from voicejack.engine import COLOURS
from voicejack.language.conversation import Conversation
from voicejack.hearing import Heard
from voicejack.speech import BACKENDS
from voicejack.language.resolution import Ask, ConfirmPolicy, LanguageSettings, summary
from voicejack.language.resolver import Resolver


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="voicejack hear",
        description="Show what the game would do on hearing some words (or a WAV recording) at a table.",
    )
    parser.add_argument("table", help="a table file (JSON, see table-format.md)")
    parser.add_argument("text", nargs="*", help="what was said or typed; several are heard in turn")
    parser.add_argument("--seat", choices=COLOURS, help="who is speaking (default: the player to act)")
    parser.add_argument("--wav", help="a WAV recording to recognise instead of TEXT")
    parser.add_argument("--backend", choices=BACKENDS, default="auto",
                        help="recogniser for --wav (default: auto)")
    parser.add_argument("--confirm", choices=[p.value for p in ConfirmPolicy], default=ConfirmPolicy.AUTO.value,
                        help="when to confirm a move: auto (default), always or never")
    parser.add_argument("--spoken", action="store_true",
                        help="treat TEXT as speech, not typing (no card letters like 'q' for queen)")
    return parser


def _print_result(result: object) -> None:
    print(summary(result))  # type: ignore[arg-type]
    if isinstance(result, Ask):
        for number, choice in enumerate(result.choices, 1):
            print(f"  {number}. {choice.label}")


def hear_main(argv: Sequence[str]) -> int:
    parser = _parser()
    args = parser.parse_intermixed_args(list(argv))
    if args.wav is None and not args.text:
        parser.print_usage(sys.stderr)
        print("voicejack hear: give TEXT to hear, or --wav FILE", file=sys.stderr)
        return 2
    if args.wav is not None and args.text:
        print("voicejack hear: give TEXT or --wav FILE, not both", file=sys.stderr)
        return 2

    state = load_table_or_complain(args.table, "voicejack hear")
    if state is None:
        return 2
    seat = args.seat or state.turn
    if seat not in state.rules.seats:
        print(f"voicejack hear: {seat} has no seat at this table ({', '.join(state.rules.seats)})", file=sys.stderr)
        return 2
    resolver = Resolver(LanguageSettings(confirm=ConfirmPolicy(args.confirm)))
    conversation = Conversation(seat, resolver)

    if args.wav is not None:
        heard = _recognise(args.wav, conversation, state, args.backend)
        if heard is None:
            return 2
        print(f"heard: {heard.text}", file=sys.stderr)
        _print_result(conversation.hear(state, heard))
        return 0

    for text in args.text:
        _print_result(conversation.hear(state, Heard(text, typed=not args.spoken)))
    return 0


def _recognise(path: str, conversation: Conversation, state: object, backend: str) -> Heard | None:
    """Run the speech package's recogniser on a file; None (after a message) when that fails."""
    if not Path(path).is_file():
        print(f"voicejack hear: {path}: no such file", file=sys.stderr)
        return None
    try:
        from voicejack.speech import recognise_file
    except ImportError as error:
        print(f"voicejack hear: speech recognition is not available ({error})", file=sys.stderr)
        return None
    failures: tuple[type[BaseException], ...] = (OSError, ValueError, RuntimeError, EOFError)
    try:
        from voicejack.speech.recogniser import SpeechError  # a missing model, a refused grammar

        failures += (SpeechError,)
    except ImportError:
        pass
    grammar = conversation.grammar(state)  # type: ignore[arg-type]
    try:
        heard: Heard = recognise_file(path, grammar, backend=backend)
    except failures as error:
        print(f"voicejack hear: {path}: {error}", file=sys.stderr)
        return None
    return heard
