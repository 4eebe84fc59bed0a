"""What applying a move reports: rich enough for narration and sound.

Events are immutable and listed in the order things happened. Marbles are
ids and positions are ints as in board.py; colours are names (types.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from voicejack.engine.moves import Move
from voicejack.engine.types import Cell, Colour, MarbleId, Position, Rank


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A card was played (always the first event of a move that is not a burn)."""

    colour: Colour
    card: Rank
    move: Move
    ace_value: int | None = None   # 1 or 11 when an ace walks
    forces_burn: bool = False      # complex 10 played as "make the next player burn"


@dataclass(frozen=True, slots=True)
class MarbleCameOut:
    marble: MarbleId
    cell: Cell
    colour: Colour  # the player whose card brought it out


@dataclass(frozen=True, slots=True)
class MarbleWalked:
    """A marble walked; ``path`` holds every position stepped on, in order, the last being where it stopped."""

    marble: MarbleId
    start: Position
    path: tuple[Position, ...]
    backward: bool
    colour: Colour            # the player whose card moved it
    sweep: bool = False    # complex king: everything passed is sent home

    @property
    def end(self) -> Position:
        return self.path[-1]


@dataclass(frozen=True, slots=True)
class MarbleCaptured:
    """A marble was sent home from ``position`` by ``by_marble`` (played by ``by_colour``)."""

    marble: MarbleId
    position: Position
    by_marble: MarbleId
    by_colour: Colour
    how: str  # "landed", "swept" or "came out"


@dataclass(frozen=True, slots=True)
class MarblesSwapped:
    marble: MarbleId        # the mover's marble
    other: MarbleId
    marble_from: Cell   # cell the mover's marble left (where the other now stands)
    other_from: Cell    # cell the other marble left (where the mover's marble now stands)
    colour: Colour


@dataclass(frozen=True, slots=True)
class EnteredSafeZone:
    marble: MarbleId
    place: int


@dataclass(frozen=True, slots=True)
class BurnForced:
    """A complex 10 made ``target`` burn a card and lose their turn (R35)."""

    colour: Colour
    target: Colour


@dataclass(frozen=True, slots=True)
class RandomBurn:
    """A 10 made ``target`` burn ``card``, drawn at random; under KA11 they lose their turn, under ON9 not."""

    colour: Colour
    target: Colour
    card: Rank
    loses_turn: bool


@dataclass(frozen=True, slots=True)
class TimedOut:
    """ON11: ``colour``'s turn timer ran out; ``card``, drawn at random from the hand, was burned."""

    colour: Colour
    card: Rank


@dataclass(frozen=True, slots=True)
class CardBurned:
    colour: Colour
    card: Rank
    forced: bool  # burned because a 10 forced it (R35), not for lack of moves (R29)


@dataclass(frozen=True, slots=True)
class HandBurned:
    """No move and no marble on the track: the whole hand goes (R30)."""

    colour: Colour
    cards: tuple[Rank, ...]


@dataclass(frozen=True, slots=True)
class PlayerFinished:
    """All four of ``colour``'s marbles are in; in team play they now move ``partner``'s (R36)."""

    colour: Colour
    partner: Colour | None


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """Played and burned cards were gathered and shuffled into a new pile; the deal moved on (R10)."""

    dealer: Colour
    pile_size: int


@dataclass(frozen=True, slots=True)
class Dealt:
    dealer: Colour
    deal_index: int      # 0-based index inside the dealer's cycle
    cards_each: int
    leader: Colour
    pile_left: int


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """``colour`` is to act next (``forced_burn`` when a 10 made them burn)."""

    colour: Colour
    forced_burn: bool = False


@dataclass(frozen=True, slots=True)
class Won:
    colours: tuple[Colour, ...]


Event = (
    CardPlayed | MarbleCameOut | MarbleWalked | MarbleCaptured | MarblesSwapped | EnteredSafeZone
    | BurnForced | RandomBurn | TimedOut | CardBurned | HandBurned | PlayerFinished | Reshuffled | Dealt | TurnPassed | Won
)
