"""From raw heard or typed text to the key words the matcher compares.

The same function turns the language's own spoken forms into keys, so a
form and what a player says for it meet in one canonical spelling:
lowercase words, fillers dropped, digits spelled out, "number one" as
"marble one", "swap" as "jack". Where a number after a colour can be read
two ways ("red fifteen" is "red one five"), every reading is returned and
the matcher keeps the best.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from voicejack.language.words import (
    CARD_LETTERS,
    CARD_WORDS,
    COLOUR_LETTERS,
    COLOUR_WORDS,
    FILLERS,
    HOMOPHONES,
    MARBLE_NUMBER_WORDS,
    NUMBER_HOMOPHONES,
    NUMBER_VALUES,
    NUMBER_WORD_LIST,
    TENS_WORDS,
    TYPED_ORDINALS,
    number_to_words,
)

Key = tuple[str, ...]

_PUNCTUATION = re.compile(r"[^\w\s'#]+")
_TYPED_MARBLE = re.compile(r"^([rbgy])(\d+)$")
_GLUED_MARBLE = re.compile(r"^(red|blue|green|yellow)(\d+)$")
_HASH_NUMBER = re.compile(r"^#(\d+)$")
_MAX_READINGS_SPLIT = 3  # at most 2**3 readings of one utterance

_MARBLE_LEADS = COLOUR_WORDS | {"marble"}
_POSSESSORS = COLOUR_WORDS | {"partner"}
_IS_CONTRACTIONS = frozenset({"where", "what", "who", "whose", "that", "it", "there"})


@dataclass(frozen=True, slots=True)
class Normalised:
    """The readings of one utterance (first = the literal one) and which raw words carried meaning."""

    readings: tuple[Key, ...]
    raw_words: tuple[str, ...]
    content: tuple[bool, ...]  # per raw word: did it survive as a key word?

    @property
    def primary(self) -> Key:
        return self.readings[0]


def raw_words(text: str) -> list[str]:
    """The words of ``text`` as a recogniser would count them (for aligning confidences)."""
    return text.split()


def _clean(word: str) -> str:
    return _PUNCTUATION.sub("", word.lower()).strip("'")


def _digits_to_words(digits: str, after_marble_lead: bool) -> list[str]:
    """Digits after a colour: first digit is the marble, the rest the steps ("red 15" = red one five)."""
    if after_marble_lead and len(digits) >= 2 and digits[0] in "1234":
        rest = int(digits[1:])
        return [NUMBER_WORD_LIST[int(digits[0])], *number_to_words(rest)] if rest < 100 else [digits]
    value = int(digits)
    return number_to_words(value) if value < 100 else [digits]


def _tokenise(text: str, typed: bool) -> list[tuple[str, int]]:
    """Split into (word, raw index) pairs, expanding glued forms like "r1" or "red1"."""
    out: list[tuple[str, int]] = []
    for index, raw in enumerate(raw_words(text)):
        for piece in raw.replace("-", " ").replace("/", " ").replace("\u2019", "'").split():
            word = _clean(piece)
            if not word:
                continue
            if word.endswith("'s") and word[:-2] in _IS_CONTRACTIONS:
                out.extend(((word[:-2], index), ("is", index)))
                continue
            if word.endswith("'s") and word[:-2] in _POSSESSORS:
                out.append((word[:-2], index))  # "blue's marbles" is "blue marbles"
                continue
            if word in TYPED_ORDINALS:
                out.append((TYPED_ORDINALS[word], index))
                continue
            hashed = _HASH_NUMBER.match(word)
            if hashed:
                out.extend((("option", index), (hashed.group(1), index)))
                continue
            glued = _GLUED_MARBLE.match(word) or (_TYPED_MARBLE.match(word) if typed else None)
            if glued:
                colour = COLOUR_LETTERS.get(glued.group(1), glued.group(1))
                out.extend(((colour, index), (glued.group(2), index)))
                continue
            out.append((word, index))
    return out


def _rewrite(tokens: list[tuple[str, int]], typed: bool) -> list[tuple[str, int]]:
    """Context rewrites: digits, sound-alikes, typed card letters, synonyms. Fillers still present."""
    out: list[tuple[str, int]] = []

    def previous() -> str:
        for word, _ in reversed(out):
            if word not in FILLERS:
                return word
        return ""

    for position, (word, index) in enumerate(tokens):
        following = tokens[position + 1][0] if position + 1 < len(tokens) else ""
        lead = previous() in _MARBLE_LEADS
        if word.isdigit():
            out.extend((w, index) for w in _digits_to_words(word, lead))
            continue
        if word in NUMBER_HOMOPHONES and lead:
            word = NUMBER_HOMOPHONES[word]
        elif word in HOMOPHONES:
            word = HOMOPHONES[word]
        elif word == "read" and (following in MARBLE_NUMBER_WORDS or following.isdigit()):
            word = "red"
        elif typed and word in CARD_LETTERS:
            article = word == "a" and (following in CARD_WORDS or following.isdigit() or following in CARD_LETTERS)
            if not article:
                word = CARD_LETTERS[word]
        if word == "number":
            word = "marble"
        if word == "marble" and previous() in COLOUR_WORDS:
            continue  # "red marble one" is "red one"
        if word == "swap":
            if previous() == "jack":
                continue
            word = "jack"
        if word in ("whole", "everything"):
            word = "all"
        if word == "choice":
            word = "option"
        out.append((word, index))
    return out


def _split_compound(word: str, following: str) -> tuple[list[str], int] | None:
    """A compound said after a colour: ("fifteen") -> one five; ("twenty", "two") -> two two.

    Returns the split words and how many input words they replace.
    """
    value = NUMBER_VALUES.get(word)
    if value is not None and 11 <= value <= 19:
        return ["one", NUMBER_WORD_LIST[value - 10]], 1
    if word in TENS_WORDS and following in NUMBER_VALUES and 1 <= NUMBER_VALUES[following] <= 9:
        return [NUMBER_WORD_LIST[TENS_WORDS[word]], following], 2
    return None


def _readings(words: list[str]) -> list[Key]:
    """Every reading of the compounds after a colour; the literal reading first."""
    spots: list[tuple[int, list[str], int]] = []
    for position, word in enumerate(words):
        if position and words[position - 1] in _MARBLE_LEADS:
            following = words[position + 1] if position + 1 < len(words) else ""
            split = _split_compound(word, following)
            if split is not None:
                spots.append((position, *split))
    spots = spots[:_MAX_READINGS_SPLIT]
    readings: list[Key] = []
    for choice in itertools.product((False, True), repeat=len(spots)):
        result: list[str] = []
        skip_until = -1
        chosen = {spot[0]: spot for spot, take in zip(spots, choice, strict=True) if take}
        for position, word in enumerate(words):
            if position < skip_until:
                continue
            if position in chosen:
                _, replacement, width = chosen[position]
                result.extend(replacement)
                skip_until = position + width
            else:
                result.append(word)
        key = tuple(result)
        if key not in readings:
            readings.append(key)
    return readings


def normalise(text: str, typed: bool = False) -> Normalised:
    """All readings of ``text`` as key words, plus which raw words carried meaning."""
    words = raw_words(text)
    rewritten = _rewrite(_tokenise(text, typed), typed)
    kept = [(word, index) for word, index in rewritten if word not in FILLERS]
    content_indices = {index for _, index in kept}
    return Normalised(
        readings=tuple(_readings([word for word, _ in kept])),
        raw_words=tuple(words),
        content=tuple(index in content_indices for index in range(len(words))),
    )


def key_of(form: str) -> Key:
    """The literal key of one of the language's own spoken forms."""
    return normalise(form).primary
