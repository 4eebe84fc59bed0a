"""Small readers for the rule-set tests: the board as text, the next random draw of a state's generator."""

from __future__ import annotations

import random

from voicejack.engine import GameState, colour_marbles
from voicejack.engine.board import HOME, SAFE_OFFSET


def board(state: GameState) -> dict[str, list[int | str]]:
    """Every seat's four marbles as a table file writes them: a cell, "home" or "safe k"."""
    def show(position: int) -> int | str:
        if position == HOME:
            return "home"
        if position > SAFE_OFFSET:
            return f"safe {position - SAFE_OFFSET}"
        return position

    return {colour: [show(state.marbles[m]) for m in colour_marbles(colour)] for colour in state.rules.seats}


def next_draw(state: GameState, cards: list[str]) -> str:
    """The card an even draw from ``cards`` by the state's seeded generator gives (KA11, ON9, ON11)."""
    twin = random.Random()
    twin.setstate(state.rng.getstate())
    return cards[twin.randrange(len(cards))]
