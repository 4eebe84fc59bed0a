"""The random bot: any legal move, uniformly, from its own seeded generator."""

from __future__ import annotations

import random

from voicejack.engine import GameState, Move


class RandomBot:
    """Plays a uniformly random legal move. The benchmark's baseline, and the weakest opponent."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "bot:random"
        self._rng = random.Random(seed)

    def choose(self, state: GameState, moves: list[Move]) -> Move:
        if not moves:
            raise ValueError("no legal move to choose from")
        return self._rng.choice(moves)
