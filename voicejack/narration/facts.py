"""Language-free facts the narrator speaks about: who is near a marble, how far from safety, who is who.

Nothing here knows a word of any language and nothing here decides a
rule: legality and results come from the engine (``play`` previews).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Final

from voicejack.engine import GameState, marble_colour, mover_colour, progress
from voicejack.engine.board import BASE_CELL, SAFE_OFFSET, TRACK_CELLS
from voicejack.engine.cards import sort_hand
from voicejack.engine.rulesets import Five

#: How far ahead and behind a marble the narrator looks for other players'
#: marbles: the reach of a single card (the complex king walks 13).
NEAR_RANGE: Final = 13


class Relation(Enum):
    """Who a colour is to the person listening."""

    SELF = "self"
    PARTNER = "partner"
    OTHER = "other"


def relation(state: GameState, colour: str, listener: str | None) -> Relation:
    if listener is None:
        return Relation.OTHER
    if colour == listener:
        return Relation.SELF
    if state.rules.partner(listener) == colour:
        return Relation.PARTNER
    return Relation.OTHER


def is_push(state: GameState, player: str, card: str, marble: int) -> bool:
    """A 5 walking a marble that is not one of the marbles the player plays with (R34, KA10, ON8)."""
    return card == "5" and state.rules.book.five is not Five.MOVER_ONLY and marble_colour(marble) != mover_colour(
        state, player)


def goes_round_again(start: int, end: int, marble: int) -> bool:
    """KA10: a pushed opponent that walked past its own base, its progress now smaller than before."""
    colour = marble_colour(marble)
    return is_track(start) and is_track(end) and progress(colour, end) < progress(colour, start)


@dataclass(frozen=True, slots=True)
class Neighbour:
    marble: int
    distance: int  # cells along the track, 1..NEAR_RANGE


def neighbours(state: GameState, marble: int) -> tuple[Neighbour | None, Neighbour | None]:
    """The nearest marbles of other colours behind and ahead of a track marble, within NEAR_RANGE."""
    cell = state.marbles[marble]
    if not 0 <= cell < TRACK_CELLS:
        return None, None
    own = marble >> 2
    found: list[Neighbour | None] = []
    for direction in (-1, 1):
        nearest = None
        for distance in range(1, NEAR_RANGE + 1):
            occupant = state.board[(cell + direction * distance) % TRACK_CELLS]
            if occupant >= 0 and occupant >> 2 != own:
                nearest = Neighbour(occupant, distance)
                break
        found.append(nearest)
    return found[0], found[1]


def steps_to_safe(state: GameState, marble: int) -> int | None:
    """Steps from a track marble to safe place 1, when it is within NEAR_RANGE of it."""
    cell = state.marbles[marble]
    if not 0 <= cell < TRACK_CELLS:
        return None
    steps = SAFE_OFFSET + 1 - progress(marble_colour(marble), cell)
    return steps if steps <= NEAR_RANGE else None


def base_owner(state: GameState, cell: int) -> str | None:
    """Whose base a track cell is, among the colours at this table (2 players have two bases)."""
    for colour in state.rules.seats:
        if BASE_CELL[colour] == cell:
            return colour
    return None


def is_track(position: int) -> bool:
    return 0 <= position < TRACK_CELLS


def is_safe(position: int) -> bool:
    return position > SAFE_OFFSET


def hand_order(hand: Sequence[str]) -> list[str]:
    """A hand in rank order, so equal cards are read together."""
    return sort_hand(list(hand))
