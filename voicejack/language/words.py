"""The words of the command language, kept as data (hassil style).

Everything a player may say is built from these tables; the normaliser
(normalise.py) maps what was heard or typed onto the same words, so a
spoken form and its matching key can never drift apart.
"""

from __future__ import annotations

from typing import Final

from voicejack.engine.board import COLOURS, NUMBER_WORDS
from voicejack.engine.cards import RANK_WORDS, WORD_RANKS

CARD_WORDS: Final = frozenset(WORD_RANKS)
COLOUR_WORDS: Final = frozenset(COLOURS)
MARBLE_NUMBER_WORDS: Final = NUMBER_WORDS  # "one".."four"

#: Number words 0..20 as players say them; index = value.
NUMBER_WORD_LIST: Final = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty",
)
NUMBER_VALUES: Final = {word: value for value, word in enumerate(NUMBER_WORD_LIST)}
TENS_WORDS: Final = {"twenty": 2, "thirty": 3, "forty": 4}

ORDINAL_WORDS: Final = (
    "zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth",
    "sixteenth",
)
ORDINAL_VALUES: Final = {word: value for value, word in enumerate(ORDINAL_WORDS) if value}
TYPED_ORDINALS: Final = {"1st": "first", "2nd": "second", "3rd": "third", **{f"{n}th": ORDINAL_WORDS[n] for n in range(4, 17)}}

#: Words that carry no meaning here; dropped before matching (never counted as errors).
FILLERS: Final = frozenset({
    "um", "umm", "uh", "uhm", "er", "erm", "ah", "hmm", "mm", "oh", "well", "so",
    "please", "the", "a", "an", "and", "with", "on", "to", "for", "of", "at", "by", "from",
    "into", "onto", "my", "your", "card", "play", "move", "use", "using", "go", "is", "it",
    "steps", "step", "cells", "cell", "spaces", "space", "places", "then", "now", "let's", "lets",
    "just", "like", "want", "would", "will", "i'll", "ill", "i'd", "id", "do", "that", "this",
})

#: Exact sound-alikes that are never meant as themselves in this game.
HOMOPHONES: Final = {"won": "one", "ate": "eight", "tree": "three", "blew": "blue", "nein": "nine", "sicks": "six"}
#: Sound-alikes of a marble number, only right after a colour or "marble".
NUMBER_HOMOPHONES: Final = {"to": "two", "too": "two", "for": "four", "fore": "four"}

#: Typed shortcuts for cards (typed input only: "a" is an article in speech).
CARD_LETTERS: Final = {"a": "ace", "j": "jack", "q": "queen", "k": "king"}
COLOUR_LETTERS: Final = {"r": "red", "b": "blue", "g": "green", "y": "yellow"}


def card_word(rank: str) -> str:
    return RANK_WORDS[rank]


def number_word(value: int) -> str:
    """Spoken form of a small number (0..20), as used in phrases."""
    return NUMBER_WORD_LIST[value]


def number_to_words(value: int) -> list[str]:
    """Spoken words for 0..99 ("twenty one")."""
    if value <= 20:
        return [NUMBER_WORD_LIST[value]]
    tens_names = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty", 9: "ninety"}
    tens, unit = divmod(value, 10)
    return [tens_names[tens]] + ([NUMBER_WORD_LIST[unit]] if unit else [])
