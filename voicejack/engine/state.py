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
    #: The seat after each colour in turn order, made once: passing the turn asks it on every move.
    following: dict[Colour, Colour] = field(init=False, repr=False, compare=False)
    #: ``team_of`` and ``partner`` of every seat, made once: the move generator asks them for many marbles.
    teams_by_seat: dict[Colour, tuple[Colour, ...]] = field(init=False, repr=False, compare=False)
    partners: dict[Colour, Colour | None] = field(init=False, repr=False, compare=False)

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
        following = {seat: order[(index + 1) % len(order)] for index, seat in enumerate(order)}
        object.__setattr__(self, "following", following)
        seats = self.seats
        partners = {seat: seats[(index + 2) % 4] if self.teams else None for index, seat in enumerate(seats)}
        object.__setattr__(self, "partners", partners)
        object.__setattr__(self, "teams_by_seat", {
            seat: tuple(c for c in seats if c in (seat, partners[seat])) for seat in seats
        })

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
        return self.partners[colour]

    def team_of(self, colour: Colour) -> tuple[Colour, ...]:
        """The colours that win together, in seat order."""
        found = self.teams_by_seat.get(colour)
        return (colour,) if found is None else found

    def next_seat(self, colour: Colour) -> Colour:
        """The player after ``colour`` in turn order (R12, KA2)."""
        return self.following[colour]

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


class GameState:
    """Everything about a match. Mutated only by the engine's apply functions.

    ``marbles`` has 16 positions indexed by marble id; ``board`` maps each
    of the 76 track cells to the marble id on it or -1. Seats not at the
    table (2 players) keep their marbles at home forever.

    A plain class with slots rather than a dataclass so that ``copy`` can be
    cheap: a search copies a state for every rollout, and copying the
    generator's 625-word state costs more than a whole move. So a copy shares
    the generator copy-on-write: both states mark it shared, and whichever
    first reads ``rng`` gets its own clone (taken from the shared one, which
    nobody draws from any more).
    """

    __slots__ = (
        "rules", "seats", "marbles", "hands", "turn", "_rng", "_rng_shared", "dealer", "deal_index", "pile",
        "discard", "forced_burn", "last_card", "winner", "history", "board",
    )

    def __init__(
        self, rules: Rules, seats: tuple[Seat, ...], marbles: list[Position], hands: dict[Colour, list[Rank]],
        turn: Colour, rng: random.Random, dealer: Colour, deal_index: int = 0, pile: list[Rank] | None = None,
        discard: list[Rank] | None = None, forced_burn: bool = False, last_card: LastCard | None = None,
        winner: tuple[Colour, ...] | None = None, history: list[tuple[Colour, Move]] | None = None,
        board: list[MarbleId] | None = None,
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.marbles = marbles
        self.hands = hands
        self.turn = turn
        self._rng = rng
        self._rng_shared = False
        self.dealer = dealer
        self.deal_index = deal_index
        self.pile: list[Rank] = [] if pile is None else pile
        self.discard: list[Rank] = [] if discard is None else discard
        self.forced_burn = forced_burn
        self.last_card = last_card
        self.winner = winner
        self.history: list[tuple[Colour, Move]] = [] if history is None else history
        self.board: list[MarbleId] = board if board else board_from_marbles(marbles)

    @property
    def rng(self) -> random.Random:
        """The table's seeded generator (deals, random burns); a copy's own, cloned on first use."""
        if self._rng_shared:
            clone = random.Random()
            clone.setstate(self._rng.getstate())
            self._rng = clone
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_shared = False

    def _values(self) -> tuple[object, ...]:
        return (
            self.rules, self.seats, self.marbles, self.hands, self.turn, self._rng, self.dealer, self.deal_index,
            self.pile, self.discard, self.forced_burn, self.last_card, self.winner, self.history, self.board,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameState):
            return NotImplemented
        return self._values() == other._values()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        return (
            f"GameState(rules={self.rules!r}, turn={self.turn!r}, marbles={self.marbles!r}, hands={self.hands!r}, "
            f"dealer={self.dealer!r}, deal_index={self.deal_index!r}, pile={self.pile!r}, discard={self.discard!r}, "
            f"forced_burn={self.forced_burn!r}, last_card={self.last_card!r}, winner={self.winner!r})"
        )

    def copy(self, *, share_rng: bool = False, keep_history: bool = True) -> GameState:
        """An independent copy. Previews that never deal may ``share_rng`` and drop the history, to be cheaper.

        Either way the generator is not copied now: see the class comment.
        """
        twin = _new_state()
        twin.rules = self.rules
        twin.seats = self.seats
        twin.marbles = self.marbles.copy()
        twin.hands = {colour: hand.copy() for colour, hand in self.hands.items()}
        twin.turn = self.turn
        twin._rng = self._rng
        if share_rng:
            twin._rng_shared = self._rng_shared
        else:
            twin._rng_shared = self._rng_shared = True
        twin.dealer = self.dealer
        twin.deal_index = self.deal_index
        twin.pile = self.pile.copy()
        twin.discard = self.discard.copy()
        twin.forced_burn = self.forced_burn
        twin.last_card = self.last_card
        twin.winner = self.winner
        twin.history = self.history.copy() if keep_history else []
        twin.board = self.board.copy()
        return twin

    def become(self, other: GameState) -> None:
        """Turn this state, in place, into an independent copy of ``other`` (taking a move back, for one)."""
        twin = other.copy()
        for name in GameState.__slots__:
            setattr(self, name, getattr(twin, name))

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
        first = colour_marbles(colour).start
        marbles = self.marbles  # four comparisons, not a generator: bots ask this for every move they weigh
        return (
            (marbles[first] > SAFE_OFFSET) + (marbles[first + 1] > SAFE_OFFSET)
            + (marbles[first + 2] > SAFE_OFFSET) + (marbles[first + 3] > SAFE_OFFSET)
        )

    def is_finished(self, colour: Colour) -> bool:
        own = colour_marbles(colour)
        return min(self.marbles[own.start:own.stop]) > SAFE_OFFSET

    def on_own_base(self, marble: MarbleId) -> bool:
        return self.marbles[marble] == BASE_BY_INDEX[marble >> 2]


def _new_state() -> GameState:
    """A GameState with no attribute set yet, for ``copy`` to fill in."""
    return object.__new__(GameState)


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
