"""The state of one match. Hidden cards live here too; per-seat views are made on top."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from voicejack.engine.board import (
    BASE_BY_INDEX,
    HOME,
    SAFE_OFFSET,
    SEATS_FOUR,
    SEATS_TWO,
    TRACK_CELLS,
    colour_marbles,
)
from voicejack.engine.moves import Move
from voicejack.engine.rulesets import MAX_TURN_SECONDS, VOICEJACK, RuleSet, TurnOrder, rule_set
from voicejack.engine.types import Cell, Colour, MarbleId, Position, Rank

REGULAR: Final = "regular"
COMPLEX: Final = "complex"
MODES: Final = (REGULAR, COMPLEX)


@dataclass(frozen=True, slots=True)
class Rules:
    """The table's fixed choices: rule set and version, teams, seats, turn timer (R1-R3, variants.md).

    ``book`` is the rule set the engine reads; ``order`` the seats in turn
    order (R12, KA2). ``turn_seconds`` None means the rule set's default.
    """

    mode: str = REGULAR
    teams: bool = True
    seats: tuple[Colour, ...] = SEATS_FOUR
    rule_set: str = VOICEJACK
    turn_seconds: int | None = None
    book: RuleSet = field(init=False, repr=False, compare=False)
    order: tuple[Colour, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be 'regular' or 'complex', not {self.mode!r}")
        if self.seats not in (SEATS_FOUR, SEATS_TWO):
            raise ValueError("seats must be red, blue, green, yellow (4 players) or red, green (2 players)")
        if self.teams and len(self.seats) != 4:
            raise ValueError("teams need 4 players")
        book = rule_set(self.rule_set, self.mode)
        if book.teams_only and not self.teams:
            raise ValueError(f"the {book.name} rule set is played by 4 players in teams only")
        if self.turn_seconds is not None:
            if not book.has_timer and self.turn_seconds != 0:
                raise ValueError(f"the {book.name} rule set has no turn timer")
            if not 0 <= self.turn_seconds <= MAX_TURN_SECONDS:
                raise ValueError(f"the turn timer must be from 0 to {MAX_TURN_SECONDS} seconds")
        object.__setattr__(self, "book", book)
        order = self.seats
        if book.turn_order is TurnOrder.AGAINST_THE_MARBLES:
            order = (self.seats[0], *reversed(self.seats[1:]))
        object.__setattr__(self, "order", order)

    @property
    def timer_seconds(self) -> int:
        """ON11: seconds per human turn, 0 for no timer."""
        if self.turn_seconds is None:
            return self.book.default_turn_seconds
        return self.turn_seconds

    @property
    def complex(self) -> bool:
        return self.mode == COMPLEX

    @property
    def players(self) -> int:
        return len(self.seats)

    def partner(self, colour: Colour) -> Colour | None:
        if not self.teams:
            return None
        index = self.seats.index(colour)
        return self.seats[(index + 2) % 4]

    def team_of(self, colour: Colour) -> tuple[Colour, ...]:
        """The colours that win together, in seat order."""
        partner = self.partner(colour)
        if partner is None:
            return (colour,)
        return tuple(c for c in self.seats if c in (colour, partner))

    def next_seat(self, colour: Colour) -> Colour:
        """The player after ``colour`` in turn order (R12, KA2)."""
        order = self.order
        return order[(order.index(colour) + 1) % len(order)]

    def previous_seat(self, colour: Colour) -> Colour:
        order = self.order
        return order[(order.index(colour) - 1) % len(order)]


@dataclass(frozen=True, slots=True)
class Seat:
    colour: Colour
    name: str
    kind: str = "bot"  # "human", "bot" or "bot:<level>"


@dataclass(frozen=True, slots=True)
class LastCard:
    """The last card played or burned (``card``; for ``burn hand`` the last card of that hand), and how."""

    colour: Colour
    card: Rank
    move: Move

    @property
    def phrase(self) -> str:
        return self.move.phrase


@dataclass(slots=True)
class GameState:
    """Everything about a match. Mutated only by the engine's apply functions.

    ``marbles`` has 16 positions indexed by marble id; ``board`` maps each
    of the 76 track cells to the marble id on it or -1. Seats not at the
    table (2 players) keep their marbles at home forever.
    """

    rules: Rules
    seats: tuple[Seat, ...]
    marbles: list[Position]
    hands: dict[Colour, list[Rank]]
    turn: Colour
    rng: random.Random
    dealer: Colour
    deal_index: int = 0
    pile: list[Rank] = field(default_factory=list)
    discard: list[Rank] = field(default_factory=list)
    forced_burn: bool = False
    last_card: LastCard | None = None
    winner: tuple[Colour, ...] | None = None
    history: list[tuple[Colour, Move]] = field(default_factory=list)
    board: list[MarbleId] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.board:
            self.board = board_from_marbles(self.marbles)

    def copy(self, *, share_rng: bool = False, keep_history: bool = True) -> GameState:
        """An independent copy. Previews that never deal may ``share_rng`` and drop the history, to be cheaper."""
        if share_rng:
            rng = self.rng
        else:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        return GameState(
            rules=self.rules,
            seats=self.seats,
            marbles=self.marbles.copy(),
            hands={colour: hand.copy() for colour, hand in self.hands.items()},
            turn=self.turn,
            rng=rng,
            dealer=self.dealer,
            deal_index=self.deal_index,
            pile=self.pile.copy(),
            discard=self.discard.copy(),
            forced_burn=self.forced_burn,
            last_card=self.last_card,
            winner=self.winner,
            history=self.history.copy() if keep_history else [],
            board=self.board.copy(),
        )

    # Read-only helpers for callers (narration, bots, voice).

    def seat(self, colour: Colour) -> Seat:
        for seat in self.seats:
            if seat.colour == colour:
                return seat
        raise KeyError(colour)

    def position(self, marble: MarbleId) -> Position:
        return self.marbles[marble]

    def marble_at(self, cell: Cell) -> MarbleId | None:
        """The marble on a track cell, if any."""
        marble = self.board[cell]
        return None if marble < 0 else marble

    def marbles_in(self, colour: Colour) -> int:
        """How many of ``colour``'s marbles are in the safe zone."""
        own = colour_marbles(colour)
        return sum(1 for p in self.marbles[own.start:own.stop] if p > SAFE_OFFSET)

    def is_finished(self, colour: Colour) -> bool:
        return self.marbles_in(colour) == 4

    def on_own_base(self, marble: MarbleId) -> bool:
        return self.marbles[marble] == BASE_BY_INDEX[marble >> 2]


def sides(rules: Rules) -> tuple[tuple[Colour, ...], ...]:
    """Who can win together: the two teams, or every player alone (R2, R37)."""
    if rules.teams:
        return (rules.team_of(rules.seats[0]), rules.team_of(rules.seats[1]))
    return tuple((colour,) for colour in rules.seats)


def winning_sides(rules: Rules, marbles: Sequence[Position]) -> list[tuple[Colour, ...]]:
    """Every side all of whose marbles are in their safe zones; in a real match at most one (R37)."""
    finished = {colour for colour in rules.seats if _all_in(marbles, colour)}
    return [side for side in sides(rules) if finished.issuperset(side)]


def _all_in(marbles: Sequence[Position], colour: Colour) -> bool:
    own = colour_marbles(colour)
    return min(marbles[own.start:own.stop]) > SAFE_OFFSET


def winner_from_marbles(rules: Rules, marbles: Sequence[Position]) -> tuple[Colour, ...] | None:
    """The side that has won, read from the marbles alone (R37): the one place a win is decided."""
    won = winning_sides(rules, marbles)
    return won[0] if won else None


def board_from_marbles(marbles: Sequence[Position]) -> list[MarbleId]:
    board = [-1] * TRACK_CELLS
    for marble, position in enumerate(marbles):
        if 0 <= position < TRACK_CELLS:
            board[position] = marble
    return board


def all_home() -> list[Position]:
    return [HOME] * 16
