"""Card ranks and the deck (R8). Suits never matter, so a card is its rank."""

from __future__ import annotations

from typing import Final

from voicejack.engine.types import Rank

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_WORDS: Final = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king",
}
WORD_RANKS: Final = {word: rank for rank, word in RANK_WORDS.items()}
RANK_ORDER: Final = {rank: index for index, rank in enumerate(RANKS)}

#: Cards that walk a marble forward by a fixed number of cells (R13).
WALK_VALUES: Final = {"2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "Q": 12}
ACE_STEPS: Final = (1, 11)
FOUR_STEPS_BACK: Final = 4
SEVEN: Final = 7
SWEEP_STEPS: Final = 13

COPIES_PER_RANK: Final = 4
DECK_SIZE: Final = 52
#: Cards each player gets per deal (R9): a 4-4-5 cycle with 4 players, always 4 with 2.
FOUR_DEAL_SIZES: Final = (4, 4, 5)
TWO_PLAYER_DEAL_SIZE: Final = 4


def full_deck() -> list[Rank]:
    """The 52 cards in a fixed canonical order (shuffling makes the order)."""
    return [rank for rank in RANKS for _ in range(COPIES_PER_RANK)]


def sort_hand(cards: list[Rank]) -> list[Rank]:
    return sorted(cards, key=RANK_ORDER.__getitem__)
