"""Headless matches between bots: for the benchmark, the tests and tuning."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from voicejack.bots.base import Bot
from voicejack.engine import Rules, apply_move, legal_moves, new_game

#: Far beyond any real match (random bots finish 4-player matches in about 500 moves).
MAX_MOVES = 20_000


@dataclass(slots=True)
class MatchResult:
    winner: tuple[str, ...] | None  # None only if max_moves ran out
    moves: int
    # Seconds spent in each call of choose(), per colour.
    think_times: dict[str, list[float]] = field(default_factory=dict)

    @property
    def think_seconds(self) -> dict[str, float]:
        return {colour: sum(times) for colour, times in self.think_times.items()}

    @property
    def decisions(self) -> dict[str, int]:
        return {colour: len(times) for colour, times in self.think_times.items()}


def play_match(rules: Rules, bots: Mapping[str, Bot], seed: int, max_moves: int = MAX_MOVES) -> MatchResult:
    """Play one match from ``new_game(rules, seed)`` with ``bots[colour]`` in every seat."""
    state, _ = new_game(rules, seed=seed)
    think: dict[str, list[float]] = {colour: [] for colour in rules.seats}
    played = 0
    while state.winner is None and played < max_moves:
        colour = state.turn
        moves = legal_moves(state)
        started = time.perf_counter()
        move = bots[colour].choose(state, moves)
        think[colour].append(time.perf_counter() - started)
        if move not in moves:
            raise RuntimeError(f"{bots[colour].name} chose a move that is not legal: {move.phrase}")
        apply_move(state, move)
        played += 1
    return MatchResult(state.winner, played, think)
