"""Moves and their canonical phrases (shared/spec/phrases.md).

A Move is an immutable value; its ``phrase`` is the move notation, and
``parse_move`` (``Move.from_phrase``) reads a phrase back into the Move, the
one parser of the notation. Legality is the rules' business
(``rules.find_move``); English descriptions belong to the narration package.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple

from voicejack.engine.board import COLOURS, NUMBER_WORDS, marble_id, marble_words
from voicejack.engine.cards import FOUR_STEPS_BACK, RANK_WORDS, SEVEN, SWEEP_STEPS, WALK_VALUES, WORD_RANKS
from voicejack.engine.rulesets import King
from voicejack.engine.types import MarbleId, Rank

if TYPE_CHECKING:
    from voicejack.engine.state import Rules


class MoveKind(Enum):
    OUT = "out"                # ace or king brings a marble out (R20)
    WALK = "walk"              # one marble walks the card's value (the 4 backwards)
    SWEEP = "sweep"            # complex king walks 13 and sweeps (R31-R33)
    SPLIT = "split"            # 7 split between two marbles, first part first (R17)
    SWAP = "swap"              # jack (R18)
    FORCE_BURN = "force_burn"  # complex 10 makes the next player burn (R35)
    BURN = "burn"              # burn one card (R29, or answering R35)
    BURN_HAND = "burn_hand"    # burn the whole hand (R30, ON3)
    TIME_OUT = "time_out"      # ON11: the turn timer ran out, a random card burned (never offered)


STEP_WORDS: Final = (
    "zero", "one", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "eleven", "twelve", "thirteen",
)
WORD_STEPS: Final = {word: n for n, word in enumerate(STEP_WORDS) if n > 0}
NO_MARBLE: Final = -1
#: ``burn hand`` names no card: the whole hand goes (R30).
NO_CARD: Final = ""
ACE_WORDS: Final = ("one", "eleven")
#: ON11's history entry when the turn timer ran out.
TIME_OUT_PHRASE: Final = "time out"
#: How far the cards named with one marble walk it; the king's 13 is the sweep (or, regular, never legal).
WALKED_BY_ONE_CARD: Final = {**WALK_VALUES, "4": FOUR_STEPS_BACK, "7": SEVEN, "K": SWEEP_STEPS}


class PhraseError(ValueError):
    """A phrase that is not a legal move now (or not a move phrase at all)."""


class PhraseSyntaxError(PhraseError):
    """The words do not form a move phrase of the notation."""


class IllegalMoveError(PhraseError):
    """A well-formed move phrase that is not legal in this position."""


class Move(NamedTuple):
    """One action in the move notation (shared/spec/phrases.md). ``marble``/``second`` are marble ids (board.py).

    ``steps`` is the walked value of the first (or only) marble: 4 for the
    backwards 4, 1 or 11 for an ace, 13 for the complex king's sweep, the
    first part of a 7 split. ``second_steps`` is the second part of a split.
    ``burn hand`` carries no card (NO_CARD).

    An immutable named tuple rather than a dataclass: legal-move generation
    makes thousands of these per second for the bots, and tuples are built
    three times faster.
    """

    card: Rank
    kind: MoveKind
    marble: MarbleId = NO_MARBLE
    steps: int = 0
    second: MarbleId = NO_MARBLE
    second_steps: int = 0

    @classmethod
    def from_phrase(cls, text: str, rules: Rules) -> Move:
        """The move a phrase names, from its words alone (see ``parse_move``)."""
        return parse_move(text, rules)

    @property
    def phrase(self) -> str:
        return _phrase(self)

    @property
    def backward(self) -> bool:
        return self.kind is MoveKind.WALK and self.card == "4"

    def __str__(self) -> str:
        return self.phrase


def _phrase(move: Move) -> str:
    kind = move.kind
    if kind is MoveKind.BURN_HAND:
        return "burn hand"
    if kind is MoveKind.TIME_OUT:
        return TIME_OUT_PHRASE
    card = RANK_WORDS[move.card]
    if kind is MoveKind.WALK:
        if move.card == "A":
            return f"play ace {marble_words(move.marble)} {STEP_WORDS[move.steps]}"
        return f"play {card} {marble_words(move.marble)}"
    if kind is MoveKind.OUT:
        return f"play {card} out"
    if kind is MoveKind.SPLIT:
        return (
            f"play seven {marble_words(move.marble)} {STEP_WORDS[move.steps]} "
            f"{marble_words(move.second)} {STEP_WORDS[move.second_steps]}"
        )
    if kind is MoveKind.SWAP:
        return f"play jack {marble_words(move.marble)} {marble_words(move.second)}"
    if kind is MoveKind.SWEEP:
        return f"play king {marble_words(move.marble)}"
    if kind is MoveKind.FORCE_BURN:
        return "play ten burn"
    return f"burn {card}"


# --------------------------------------------------------------------------
# Reading the notation


def parse_move(text: str, rules: Rules) -> Move:
    """The move a phrase names, judged on its words alone: no position, no legality.

    Case and spacing do not matter. The rule set matters for one phrase
    only: ``play king red one`` is the sweep in the complex version (R31)
    and under Karooty and Online (KA9, ON7), and a 13-step walk, never
    legal, in the regular one. ``time out`` is ON11's history entry. Raises
    PhraseSyntaxError, saying what is wrong, for words that are no move
    phrase.
    """
    return _parse(text, rules.book.king is King.OUT_OR_SWEEP)


def _parse(text: str, complex_version: bool) -> Move:
    words = text.lower().split()
    if not words:
        raise PhraseSyntaxError("the phrase is empty")
    head = words[0]
    if words == ["time", "out"]:
        return Move(NO_CARD, MoveKind.TIME_OUT)
    if head == "burn":
        return _burn(words)
    if head != "play":
        raise PhraseSyntaxError("a move starts with 'play' or 'burn'")
    if len(words) < 2 or words[1] not in WORD_RANKS:
        raise PhraseSyntaxError("after 'play' name a card, like 'play nine red one'")
    return _play(WORD_RANKS[words[1]], words[2:], complex_version)


def _burn(words: list[str]) -> Move:
    if len(words) == 2:
        if words[1] == "hand":
            return Move(NO_CARD, MoveKind.BURN_HAND)
        if words[1] in WORD_RANKS:
            return Move(WORD_RANKS[words[1]], MoveKind.BURN)
    raise PhraseSyntaxError("say 'burn' and a card, like 'burn nine', or 'burn hand'")


def _play(rank: Rank, rest: list[str], complex_version: bool) -> Move:
    """``rest``: the words after 'play <card>'."""
    if rest == ["out"] and rank in ("A", "K"):
        return Move(rank, MoveKind.OUT)
    if rest == ["burn"] and rank == "10":
        return Move(rank, MoveKind.FORCE_BURN)
    if rank == "7" and len(rest) == 6:
        return Move(rank, MoveKind.SPLIT, _marble(rest, 0), _steps(rest, 2), _marble(rest, 3), _steps(rest, 5))
    if rank == "J":
        if len(rest) != 4:
            raise PhraseSyntaxError("a jack names two marbles, yours first, like 'play jack red one blue three'")
        return Move(rank, MoveKind.SWAP, _marble(rest, 0), 0, _marble(rest, 2))
    if rank == "A" and len(rest) == 3:
        marble = _marble(rest, 0)
        if rest[2] not in ACE_WORDS:
            raise PhraseSyntaxError("an ace walks 'one' or 'eleven'")
        return Move(rank, MoveKind.WALK, marble, WORD_STEPS[rest[2]])
    if len(rest) == 2:
        marble = _marble(rest, 0)
        if rank == "A":
            raise PhraseSyntaxError("say how far the ace walks: 'one' or 'eleven'")
        kind = MoveKind.SWEEP if rank == "K" and complex_version else MoveKind.WALK
        return Move(rank, kind, marble, WALKED_BY_ONE_CARD[rank])
    raise PhraseSyntaxError(f"that is not a way to play the {RANK_WORDS[rank]}")


def _marble(words: list[str], at: int) -> MarbleId:
    if at + 1 >= len(words) or words[at] not in COLOURS or words[at + 1] not in NUMBER_WORDS:
        raise PhraseSyntaxError("expected a marble here, like 'red one'")
    return marble_id(words[at], NUMBER_WORDS.index(words[at + 1]) + 1)


def _steps(words: list[str], at: int) -> int:
    if at >= len(words) or words[at] not in WORD_STEPS:
        raise PhraseSyntaxError("expected a number of steps here, like 'five'")
    return WORD_STEPS[words[at]]


def parse_phrase_syntax(text: str) -> tuple[str, ...]:
    """The words of a move phrase in canonical spelling (the same in both versions); PhraseSyntaxError if none."""
    return tuple(_parse(text, complex_version=False).phrase.split())


# --------------------------------------------------------------------------
# Every move legal-move generation offers, made once
#
# Moves are immutable, so one tuple serves every position; generating the
# legal moves then only picks them out of these tables (by marble id).

_MARBLES: Final = range(16)
#: ``WALK_MOVES[card][marble]``: the card's one-marble walk (the 4 backwards); the ace's are ACE_MOVES.
WALK_MOVES: Final = {
    card: tuple(Move(card, MoveKind.WALK, marble, steps) for marble in _MARBLES)
    for card, steps in WALKED_BY_ONE_CARD.items() if card != "K"
}
#: ``ACE_MOVES[steps][marble]`` for the ace's 1 and 11 (R14).
ACE_MOVES: Final = {steps: tuple(Move("A", MoveKind.WALK, marble, steps) for marble in _MARBLES) for steps in (1, 11)}
SWEEP_MOVES: Final = tuple(Move("K", MoveKind.SWEEP, marble, SWEEP_STEPS) for marble in _MARBLES)
#: ``SPLIT_MOVES[first][first steps][second]``: the 7 split first + (7 - first steps) (R17).
SPLIT_MOVES: Final = tuple(
    tuple(tuple(Move("7", MoveKind.SPLIT, first, steps, second, SEVEN - steps) for second in _MARBLES)
          for steps in range(SEVEN))
    for first in _MARBLES
)
#: ``SWAP_MOVES[marble][other]``: the jack (R18).
SWAP_MOVES: Final = tuple(
    tuple(Move("J", MoveKind.SWAP, marble, 0, other) for other in _MARBLES) for marble in _MARBLES
)
OUT_MOVES: Final = {"A": Move("A", MoveKind.OUT), "K": Move("K", MoveKind.OUT)}
BURN_MOVES: Final = {rank: Move(rank, MoveKind.BURN) for rank in RANK_WORDS}
FORCE_BURN_MOVE: Final = Move("10", MoveKind.FORCE_BURN)
BURN_HAND_MOVE: Final = Move(NO_CARD, MoveKind.BURN_HAND)
