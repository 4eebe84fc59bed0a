"""The invariants of a valid table, written once (shared/spec/table-format.md, "Validation").

The table-file loader, the engine's own debug checks and the tests all ask
``check_state``. Messages are one line and name the table-file key that is
wrong, so the loader can pass them on as they are.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from voicejack.engine.board import (
    COLOURS,
    HOME,
    MARBLE_SLICES,
    MARBLES_PER_COLOUR,
    SAFE_OFFSET,
    SAFE_PLACES,
    TRACK_CELLS,
    colour_marbles,
    marble_name,
    position_to_text,
)
from voicejack.engine.cards import COPIES_PER_RANK, DECK_SIZE, FOUR_DEAL_SIZES, RANKS
from voicejack.engine.rulesets import Deals
from voicejack.engine.state import GameState, board_from_marbles, winning_sides
from voicejack.engine.types import Colour, Rank

MARBLES: Final = len(COLOURS) * MARBLES_PER_COLOUR
_RANK_SET: Final = frozenset(RANKS)


#: When true, the engine checks the state after every move it applies (tests turn it on; it costs a move's time).
debug_checks = False


class InvalidStateError(ValueError):
    """A state that breaks an invariant of a valid table; the message is one line naming the key."""


def check_state(state: GameState) -> None:
    """Raise InvalidStateError unless ``state`` is a table the rules can reach or a person may set up."""
    _check_seats(state)
    _check_marbles(state)
    _check_board(state)
    _check_cards(state)
    _check_winner(state)
    _check_turn(state)


def _check_seats(state: GameState) -> None:
    seats = state.rules.seats
    if tuple(seat.colour for seat in state.seats) != seats:
        raise InvalidStateError(f"'players' must be {', '.join(seats)} in that order")
    if set(state.hands) != set(seats):
        raise InvalidStateError(f"hands are held by {', '.join(state.hands)}, not by the seats {', '.join(seats)}")
    for key, colour in (("turn", state.turn), ("dealer", state.dealer)):
        if colour not in seats:
            raise InvalidStateError(f"'{key}' must be one of {', '.join(seats)}, not {colour!r}")
    book = state.rules.book
    if book.deals is Deals.FOUR_EACH_DEALER_MOVES and state.deal_index != 0:
        raise InvalidStateError(f"'deal' must be 0 under the {book.name} rules: every deal is alike (ON2)")
    if state.forced_burn and book.random_ten:
        raise InvalidStateError(
            f"'forced_burn' never occurs under the {book.name} rules: their 10 burns a card at random at once"
        )
    # 4 players deal a 4-4-5 cycle (R9); 2 players deal 4 each until the pile is short (R10), so a
    # hand-made pile may let their count run past the six deals of a full pile.
    if len(seats) == 4 and not 0 <= state.deal_index < len(FOUR_DEAL_SIZES):
        raise InvalidStateError(f"'deal' must be a whole number from 0 to {len(FOUR_DEAL_SIZES) - 1}")
    if state.deal_index < 0:
        raise InvalidStateError("'deal' must be a whole number from 0")


def _check_marbles(state: GameState) -> None:
    marbles = state.marbles
    if len(marbles) != MARBLES:
        raise InvalidStateError(f"'marbles' must hold {MARBLES} positions, not {len(marbles)}")
    shared = [position for position in marbles if 0 <= position < TRACK_CELLS]
    if len(set(shared)) == len(shared) and all(_own_marbles_fit(state, index) for index in range(len(COLOURS))):
        return
    _explain_marbles(state)


def _own_marbles_fit(state: GameState, colour_index: int) -> bool:
    """One colour's marbles: real positions, two never on one safe place, all home for a seat not at the table."""
    positions = state.marbles[MARBLE_SLICES[colour_index]]
    if COLOURS[colour_index] not in state.rules.seats:
        return all(position == HOME for position in positions)
    safe = [position for position in positions if position > SAFE_OFFSET]
    return min(positions) >= HOME and max(positions) <= SAFE_OFFSET + SAFE_PLACES and len(set(safe)) == len(safe)


def _explain_marbles(state: GameState) -> None:
    """The message for the first marble that breaks the rules of the board (slow; only on failure)."""
    seats = state.rules.seats
    taken: dict[tuple[Colour, int], str] = {}
    for colour in COLOURS:
        for marble in colour_marbles(colour):
            position = state.marbles[marble]
            where = f"'marbles' {marble_name(marble)}"
            if not HOME <= position <= SAFE_OFFSET + SAFE_PLACES:
                raise InvalidStateError(f"{where}: {position} is not a position")
            if position == HOME:
                continue
            if colour not in seats:
                raise InvalidStateError(f"{where} is on the board, but {colour} has no seat at this table")
            # Track cells are shared by everybody; each colour has its own four safe places.
            spot = ("track", position) if position < TRACK_CELLS else (colour, position)
            if spot in taken:
                place = f"cell {position}" if position < TRACK_CELLS else position_to_text(position)
                raise InvalidStateError(f"{where} and {taken[spot]} are both on {place}")
            taken[spot] = marble_name(marble)


def _check_board(state: GameState) -> None:
    board = state.board
    marbles = state.marbles
    if len(board) != TRACK_CELLS:
        raise InvalidStateError(f"the board must have {TRACK_CELLS} cells, not {len(board)}")
    if board == board_from_marbles(marbles):
        return
    for cell, marble in enumerate(board):
        if marble >= 0 and (not 0 <= marble < MARBLES or marbles[marble] != cell):
            raise InvalidStateError(f"the board puts marble {marble} on cell {cell}, its marble list elsewhere")
    for marble, position in enumerate(marbles):
        if 0 <= position < TRACK_CELLS and board[position] != marble:
            raise InvalidStateError(f"{marble_name(marble)} stands on cell {position}, which the board shows otherwise")


def _check_cards(state: GameState) -> None:
    counts = Counter([*state.pile, *state.discard, *(card for hand in state.hands.values() for card in hand)])
    if counts.keys() <= _RANK_SET and max(counts.values(), default=0) <= COPIES_PER_RANK:
        total = sum(counts.values())
        if total != DECK_SIZE:
            raise InvalidStateError(f"hands + 'pile' + 'discard' hold {total} cards, not the 52-card deck")
        return
    places: list[tuple[str, list[Rank]]] = [
        *((f"{colour}'s hand", hand) for colour, hand in state.hands.items()),
        ("'pile'", state.pile),
        ("'discard'", state.discard),
    ]
    for where, cards in places:
        for card in cards:
            if card not in _RANK_SET:
                raise InvalidStateError(f"{where}: {card!r} is not a card")
    for rank in RANKS:
        if counts[rank] > COPIES_PER_RANK:
            raise InvalidStateError(f"more than four cards of rank \"{rank}\" among the hands, pile and discard")


def _check_winner(state: GameState) -> None:
    """R37: the winner is the side the marbles show complete, and the marbles show at most one."""
    won = winning_sides(state.rules, state.marbles)
    if len(won) > 1:
        shown = " and ".join("+".join(side) for side in won)
        raise InvalidStateError(f"the marbles show more than one winner ({shown}): a match ends at its first win (R37)")
    shown_winner = won[0] if won else None
    if state.winner == shown_winner:
        return
    if state.winner is None:
        raise InvalidStateError(f"the marbles show {'+'.join(won[0])} won, but no 'winner' is set")
    claimed = "+".join(state.winner)
    if shown_winner is None:
        raise InvalidStateError(f"'winner' is {claimed}, but no side has all its marbles in (R37)")
    raise InvalidStateError(f"'winner' is {claimed}, but the marbles show {'+'.join(shown_winner)} won (R37)")


def _check_turn(state: GameState) -> None:
    """R12: the player to act holds cards; a won match offers nothing (R38), so it may stop anywhere."""
    turn = state.turn
    if state.forced_burn and not state.hands[turn]:
        raise InvalidStateError(f"'forced_burn' is set on {turn}, who holds no cards")
    if state.winner is not None:
        return
    anybody_holds = any(state.hands.values())
    if not anybody_holds:
        raise InvalidStateError("no player holds any card and no 'winner' is set")
    if not state.hands[turn]:
        raise InvalidStateError(f"'turn' is {turn}, whose hand is empty while another player holds cards")
