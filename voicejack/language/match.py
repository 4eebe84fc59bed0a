"""Word edit distance and the "clearly best" decision (the Lichess habit).

Every word that was heard but is not in the key, every key word that was
not heard, and every wrong word costs one. Fillers never reach this point
(see normalise.py), so "um, the nine on red two please" costs nothing
against "nine red two".
"""

from __future__ import annotations

from collections.abc import Sequence

#: A best candidate must beat every other candidate by at least this much to be taken without asking.
CLEAR_MARGIN = 1.0


def word_distance(heard: Sequence[str], key: Sequence[str], limit: float = 99.0) -> float:
    """Levenshtein distance over words, with an early exit once every path exceeds ``limit``."""
    if heard == key:
        return 0.0
    rows = len(heard)
    cols = len(key)
    if abs(rows - cols) > limit:
        return float(abs(rows - cols))
    previous = list(range(cols + 1))
    for i in range(1, rows + 1):
        current = [i] + [0] * cols
        word = heard[i - 1]
        best = current[0]
        for j in range(1, cols + 1):
            cost = previous[j - 1] + (0 if word == key[j - 1] else 1)
            deletion = previous[j] + 1
            insertion = current[j - 1] + 1
            value = cost if cost < deletion else deletion
            if insertion < value:
                value = insertion
            current[j] = value
            if value < best:
                best = value
        if best > limit:
            return float(best)
        previous = current
    return float(previous[cols])


def allowed_cost(heard_length: int, key_length: int) -> float:
    """How many word errors a match of these lengths may carry and still count.

    One error in a short phrase, two in a long one, and always at least two
    words right: a lone "mine" is not "nine", "option one" is not "red one".
    """
    longest = max(heard_length, key_length)
    budget = 1.0 if longest <= 4 else 2.0
    return min(budget, float(longest - 2))
