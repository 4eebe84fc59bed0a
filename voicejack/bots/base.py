"""What every bot is: a name and a choice among the legal moves."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from voicejack.engine import GameState, Move


@runtime_checkable
class Bot(Protocol):
    """A player that picks one of the legal moves of the seat to act.

    ``moves`` is ``legal_moves(state)``; the answer is one of its items.
    A bot may only use what its seat may know: the board, its own hand,
    the played cards and how many cards the others hold (see
    ``voicejack.bots.view.seat_view``).
    """

    name: str

    def choose(self, state: GameState, moves: list[Move]) -> Move: ...
