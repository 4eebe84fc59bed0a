"""Property-based tests over random legal play from new_game, every table kind, both versions."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from voicejack.engine import (
    GameState,
    check_state,
    find_move,
    legal_moves,
    legal_phrases,
    make_rules,
    new_game,
    play,
)
from voicejack.tablefile import table_from_dict, table_to_dict

KINDS = st.sampled_from([(2, False), (4, True), (4, False)])
MODES = st.sampled_from(["regular", "complex"])
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def check_invariants(state: GameState) -> None:
    """The invariants of a valid table, written once in engine/validity.py: marbles never vanish or double,
    board and marble list agree, the 52 cards are conserved, the player to act holds cards (R12), and the
    winner is set exactly when a side has all its marbles in (R37); and a won match offers nothing (R38)."""
    check_state(state)
    if state.winner is not None:
        assert legal_moves(state) == []


def random_play(players: int, teams: bool, mode: str, seed: int, steps: int) -> GameState:
    chooser = random.Random(seed ^ 0x5EED)
    state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=seed)
    for _ in range(steps):
        if state.winner is not None:
            break
        state, _ = play(state, chooser.choice(legal_moves(state)))
    return state


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=KINDS, mode=MODES, seed=SEEDS, steps=st.integers(min_value=1, max_value=250))
def test_random_play_keeps_the_invariants(kind: tuple[int, bool], mode: str, seed: int, steps: int) -> None:
    """Every legal move applies without error and leaves marbles, board and cards consistent;
    the move list never has a duplicate phrase and every phrase finds its move again."""
    players, teams = kind
    chooser = random.Random(seed)
    state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=seed)
    check_invariants(state)
    for _ in range(steps):
        if state.winner is not None:
            break
        moves = legal_moves(state)
        phrases = [m.phrase for m in moves]
        assert moves, "R38: something is offered until the match is won"
        assert len(phrases) == len(set(phrases))
        assert legal_phrases(state) == sorted(phrases)
        for move in moves:
            assert find_move(state, move.phrase) == move
            after, events = play(state, move)
            assert events
            check_invariants(after)
        state, _ = play(state, chooser.choice(moves))


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    kind=KINDS, mode=MODES, seed=SEEDS,
    steps=st.integers(min_value=0, max_value=300), future=st.integers(min_value=1, max_value=1 << 30),
)
def test_save_and_load_keep_the_moves_and_the_future_deals(
    kind: tuple[int, bool], mode: str, seed: int, steps: int, future: int,
) -> None:
    """table_to_dict -> JSON -> table_from_dict gives the same legal moves and, continuing with the
    same choices, the same events, hands and deals (the generator's state is kept)."""
    players, teams = kind
    state = random_play(players, teams, mode, seed, steps)
    data = json.loads(json.dumps(table_to_dict(state)))
    loaded = table_from_dict(data)
    assert loaded.marbles == state.marbles and loaded.hands == state.hands
    assert loaded.pile == state.pile and loaded.discard == state.discard
    assert (loaded.turn, loaded.dealer, loaded.deal_index, loaded.forced_burn, loaded.winner) == (
        state.turn, state.dealer, state.deal_index, state.forced_burn, state.winner,
    )
    chooser = random.Random(future)
    original = state
    for _ in range(160):  # enough for at least one reshuffle in every table kind
        assert legal_phrases(loaded) == legal_phrases(original)
        if original.winner is not None:
            break
        index = chooser.randrange(len(legal_moves(original)))
        original, events_a = play(original, legal_moves(original)[index])
        loaded, events_b = play(loaded, legal_moves(loaded)[index])
        assert events_a == events_b
        assert loaded.hands == original.hands and loaded.pile == original.pile
        assert loaded.marbles == original.marbles


@settings(max_examples=15, deadline=None)
@given(kind=KINDS, mode=MODES, seed=SEEDS)
def test_new_game_and_first_moves_are_reproducible(kind: tuple[int, bool], mode: str, seed: int) -> None:
    """Same seed, same choices: the same match, move for move (R11: the seeded generator)."""
    players, teams = kind
    a = random_play(players, teams, mode, seed, 120)
    b = random_play(players, teams, mode, seed, 120)
    assert (a.marbles, a.hands, a.pile, a.discard, a.history) == (b.marbles, b.hands, b.pile, b.discard, b.history)
