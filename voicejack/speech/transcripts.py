"""Whisper's free transcript against the grammar's sentences: words as the grammar spells them, edit costs,
and what one scoring of an utterance found (``Scored``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

_DIGITS = {
    "0": "zero", "1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "10": "ten", "11": "eleven", "12": "twelve", "13": "thirteen",
}


def normalise(text: str) -> list[str]:
    """Whisper's transcript as grammar words: lower case, no punctuation, digits spelt out."""
    words: list[str] = []
    for raw in text.lower().replace("-", " ").split():
        word = "".join(c for c in raw if c.isalnum() or c == "'").strip("'")
        if word.isdigit() and word not in _DIGITS:
            words.extend(_DIGITS.get(d, d) for d in word)
        elif word:
            words.append(_DIGITS.get(word, word))
    return words


@lru_cache(maxsize=65536)
def _word_cost(a: str, b: str) -> float:
    """Character edit distance of two words over the longer one's length (0 same, 1 nothing alike)."""
    if a == b:
        return 0.0
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1] / max(len(a), len(b))


def edit_cost(heard: Sequence[str], sentence: Sequence[str]) -> float:
    """Word-level edit distance: insertions and deletions cost 1, substitutions their character cost."""
    previous = [float(j) for j in range(len(sentence) + 1)]
    for i, word in enumerate(heard, 1):
        current = [float(i)]
        for j, other in enumerate(sentence, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + _word_cost(word, other)))
        previous = current
    return previous[-1]


@dataclass(frozen=True, slots=True)
class Scored:
    free_text: str
    ranked: tuple[tuple[str, float], ...]  # shortlisted sentences with their log-probabilities, best first
    distance: float  # edit cost per word between the free decoding and the best sentence
    near_free: tuple[str, ...] = ()  # the shortlist nearest the free decoding (the rest were asked for by name)
    # each ranked sentence's mean log-probability per token, without the length bonus: how well it fits at all
    fit: tuple[tuple[str, float], ...] = ()


def combine(first: Scored, second: Scored) -> Scored:
    """``first``'s scoring with a second recogniser's opinion on the sentences ``second`` scored: each of
    those ranks by the mean of both scores and fits by the mean of both fits; ``first``'s other sentences
    drop out of the ranking (they were not finalists). Free text and distance stay ``first``'s."""
    mine, theirs = dict(first.ranked), dict(second.ranked)
    both = [text for text in theirs if text in mine]
    if not both:
        return first
    ranked = tuple(sorted(((text, (mine[text] + theirs[text]) / 2) for text in both), key=lambda pair: -pair[1]))
    fit_first, fit_second = dict(first.fit), dict(second.fit)
    fit = tuple((text, (fit_first.get(text, -10.0) + fit_second.get(text, -10.0)) / 2) for text in both)
    return Scored(first.free_text, ranked, first.distance, first.near_free, fit)
