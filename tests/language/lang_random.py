"""Positions reached by seeded random play, over every table shape (2/4 players, teams, complex)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from voicejack.engine import GameState, legal_moves, make_rules, new_game, play

SHAPES: tuple[tuple[int, bool, str], ...] = (  # players, teams, mode
    (4, True, "regular"),
    (4, False, "complex"),
    (2, False, "regular"),
    (4, True, "complex"),
)


def random_positions(count: int, seed: int = 0, plies: int = 160) -> Iterator[GameState]:
    """``count`` positions with a player to act, sampled along random games (later positions have more marbles out)."""
    rng = random.Random(seed)
    made = 0
    game = 0
    while made < count:
        players, teams, mode = SHAPES[game % len(SHAPES)]
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=rng.randrange(1 << 30))
        game += 1
        stops = sorted(rng.sample(range(plies), 4))
        for ply in range(plies):
            if state.winner is not None:
                break
            if ply in stops:
                yield state
                made += 1
                if made >= count:
                    return
            state, _ = play(state, rng.choice(legal_moves(state)))
