"""Moves and their canonical phrases (shared/spec/phrases.md).

A Move is an immutable value; its ``phrase`` is the move notation. English
descriptions of moves belong to the narration package, not here.
"""

from __future__ import annotations

from enum import Enum
from typing import Final, NamedTuple

from voicejack.engine.board import COLOUR_INDEX, NUMBER_WORDS, marble_words
from voicejack.engine.cards import RANK_WORDS, WORD_RANKS


class MoveKind(Enum):
    OUT = "out"                # ace or king brings a marble out (R20)
    WALK = "walk"              # one marble walks the card's value (the 4 backwards)
    SWEEP = "sweep"            # complex king walks 13 and sweeps (R31-R33)
    SPLIT = "split"            # 7 split between two marbles, first part first (R17)
    SWAP = "swap"              # jack (R18)
    FORCE_BURN = "force_burn"  # complex 10 makes the next player burn (R35)
    BURN = "burn"              # burn one card (R29, or answering R35)
    BURN_HAND = "burn_hand"    # burn the whole hand (R30)


STEP_WORDS: Final = (
    "zero", "one", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "eleven", "twelve", "thirteen",
)
WORD_STEPS: Final = {word: n for n, word in enumerate(STEP_WORDS) if n > 0}
NO_MARBLE: Final = -1


class PhraseError(ValueError):
    """A phrase that is not a legal move now (or not a move phrase at all)."""


class PhraseSyntaxError(PhraseError):
    """The words do not form a move phrase of the notation."""


class IllegalMoveError(PhraseError):
    """A well-formed move phrase that is not legal in this position."""


class Move(NamedTuple):
    """One legal action. ``marble``/``second`` are marble ids (see board.py).

    ``steps`` is the walked value of the first (or only) marble: 4 for the
    backwards 4, 1 or 11 for an ace, the first part of a 7 split.
    ``second_steps`` is the second part of a split.

    An immutable named tuple rather than a dataclass: legal-move generation
    makes thousands of these per second for the bots, and tuples are built
    three times faster.
    """

    card: str
    kind: MoveKind
    marble: int = NO_MARBLE
    steps: int = 0
    second: int = NO_MARBLE
    second_steps: int = 0

    @property
    def phrase(self) -> str:
        return _phrase(self)

    @property
    def backward(self) -> bool:
        return self.kind is MoveKind.WALK and self.card == "4"

    def __str__(self) -> str:
        return self.phrase


def _phrase(move: Move) -> str:
    card = RANK_WORDS[move.card]
    kind = move.kind
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
    if kind is MoveKind.BURN:
        return f"burn {card}"
    return "burn hand"


def _take_marble(words: list[str], at: int) -> int:
    if at + 1 >= len(words) or words[at] not in COLOUR_INDEX or words[at + 1] not in NUMBER_WORDS:
        raise PhraseSyntaxError("expected a marble here, like 'red one'")
    return COLOUR_INDEX[words[at]] * 4 + NUMBER_WORDS.index(words[at + 1])


def _take_steps(words: list[str], at: int) -> int:
    if at >= len(words) or words[at] not in WORD_STEPS:
        raise PhraseSyntaxError("expected a number of steps here, like 'five'")
    return WORD_STEPS[words[at]]


def parse_phrase_syntax(text: str) -> tuple[str, ...]:
    """Check that ``text`` has the shape of a move phrase; return its normalised words.

    This does not know the position: the legal-move list decides legality.
    """
    words = text.lower().split()
    if not words:
        raise PhraseSyntaxError("the phrase is empty")
    head = words[0]
    if head == "burn":
        if len(words) == 2 and (words[1] == "hand" or words[1] in WORD_RANKS):
            return tuple(words)
        raise PhraseSyntaxError("say 'burn' and a card, like 'burn nine', or 'burn hand'")
    if head != "play":
        raise PhraseSyntaxError("a move starts with 'play' or 'burn'")
    if len(words) < 2 or words[1] not in WORD_RANKS:
        raise PhraseSyntaxError("after 'play' name a card, like 'play nine red one'")
    rank = WORD_RANKS[words[1]]
    rest = words[2:]
    if rest in (["out"],) and rank in ("A", "K"):
        return tuple(words)
    if rest == ["burn"] and rank == "10":
        return tuple(words)
    if rank == "7" and len(rest) == 6:
        _take_marble(rest, 0), _take_steps(rest, 2), _take_marble(rest, 3), _take_steps(rest, 5)
        return tuple(words)
    if rank == "J":
        if len(rest) != 4:
            raise PhraseSyntaxError("a jack names two marbles, yours first, like 'play jack red one blue three'")
        _take_marble(rest, 0), _take_marble(rest, 2)
        return tuple(words)
    if rank == "A" and len(rest) == 3:
        _take_marble(rest, 0)
        if rest[2] not in ("one", "eleven"):
            raise PhraseSyntaxError("an ace walks 'one' or 'eleven'")
        return tuple(words)
    if len(rest) == 2:
        _take_marble(rest, 0)
        if rank == "A":
            raise PhraseSyntaxError("say how far the ace walks: 'one' or 'eleven'")
        return tuple(words)
    raise PhraseSyntaxError(f"that is not a way to play the {RANK_WORDS[rank]}")
