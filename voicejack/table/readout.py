"""Readouts the player moves through line by line, and the narration the table asks for by name.

The narration package is growing the board readout as a list (a summary
line first), one player's line, a resume summary and a "last card" that
can tell the last move in full. Until those land, the fallbacks here give
the same shape from the older readout, so the table works either way.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from voicejack.engine import GameState
from voicejack.engine.board import colour_marbles
from voicejack.engine.events import Event
from voicejack.narration import Narrator
from voicejack.table.messages import say

Recent = tuple[GameState, Sequence[Event]]  # the state before the last move, and that move's events
MARBLES_EACH = 4


class Readout:
    """A list of lines and where the player is in it: "next", "previous", "again"."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.at = 0

    def start(self, lines: Sequence[str]) -> str:
        self.lines = [line for line in lines if line]
        self.at = 0
        return self.lines[0] if self.lines else ""

    def step(self, by: int) -> str:
        """The line ``by`` lines on (or back), or a sentence saying there is none there."""
        if not self.lines:
            return say("readout.none")
        target = self.at + by
        if target >= len(self.lines):
            return say("readout.end")
        if target < 0:
            return say("readout.start")
        self.at = target
        return self.lines[target]


def board_lines(narrator: Narrator, state: GameState, listener: str | None) -> list[str]:
    method: Callable[[GameState, str | None], list[str]] | None = getattr(narrator, "board_lines", None)
    return method(state, listener) if method is not None else narrator.board(state, listener)


def player_line(narrator: Narrator, state: GameState, colour: str, listener: str | None) -> str:
    method: Callable[[GameState, str, str | None], str] | None = getattr(narrator, "player_line", None)
    if method is not None:
        return method(state, colour, listener)
    # The older readout: header, turn, last card, then each seat from the listener on, a line and its four marbles.
    seats = list(state.rules.seats)
    if colour not in seats:
        return narrator.where_is(state, colour_marbles(colour)[0], listener)
    start = seats.index(listener) if listener in seats else 0
    order = seats[start:] + seats[:start]
    lines = narrator.board(state, listener)
    first = 3 + order.index(colour) * (1 + MARBLES_EACH)
    return " ".join(lines[first:first + 1 + MARBLES_EACH])


def resume_summary(narrator: Narrator, state: GameState, listener: str | None) -> list[str]:
    method: Callable[[GameState, str | None], list[str]] | None = getattr(narrator, "resume_summary", None)
    if method is not None:
        return method(state, listener)
    lines = [say("you_play", colour=listener)] if listener is not None else []
    return lines + narrator.board(state, listener)[:1]


def last_card(narrator: Narrator, state: GameState, listener: str | None, recent: Recent | None) -> str:
    method: Callable[..., str] = narrator.last_card
    if _accepts(method, "recent"):
        return method(state, listener, recent=recent)
    return method(state, listener)


def _accepts(method: Callable[..., Any], keyword: str) -> bool:
    try:
        return keyword in inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
