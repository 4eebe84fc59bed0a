"""why_illegal under the house rule sets: the new refusals (KA4-KA12, ON3-ON11) and a named reason for everything."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from voicejack.engine import GameState, Move, MoveKind, legal_moves, make_rules, marble_id, new_game, play
from voicejack.engine.moves import NO_CARD
from voicejack.engine.why import IllegalReason, Why, why_illegal

try:
    from .test_engine_why import _plain_moves
except ImportError:
    from test_engine_why import _plain_moves  # type: ignore[no-redef]

Position = Callable[..., GameState]
RED1, RED2 = marble_id("red", 1), marble_id("red", 2)
BLUE1, BLUE2 = marble_id("blue", 1), marble_id("blue", 2)
GREEN1 = marble_id("green", 1)


def walk(card: str, marble: int, steps: int) -> Move:
    return Move(card, MoveKind.WALK, marble, steps)


def test_ka6_the_goal_entrance_is_named(position: Position) -> None:
    state = position(marbles={"red": [70, 30], "blue": [75]}, hands={"red": ["8", "6"]}, rules="karooty")
    assert why_illegal(state, walk("8", RED1, 8)) == IllegalReason(
        Why.GOAL_ENTRANCE, "8", RED1, 8, blocker=BLUE1, position=75)


def test_ka5_an_own_marble_cannot_be_landed_on(position: Position) -> None:
    state = position(marbles={"red": [10, 14]}, hands={"red": ["4", "2"]}, rules="karooty")
    assert why_illegal(state, walk("4", RED2, 4)) == IllegalReason(
        Why.PASSES_OWN, "4", RED2, 4, blocker=RED1, position=10)


def test_on5_a_wall_of_one_colour_is_named(position: Position) -> None:
    state = position(marbles={"red": [15], "blue": [20, 21]}, hands={"red": ["8", "2"]}, rules="online", teams=False)
    assert why_illegal(state, walk("8", RED1, 8)) == IllegalReason(
        Why.WALL, "8", RED1, 8, blocker=BLUE2, position=21, second=BLUE1)


def test_on8_the_five_does_not_push_a_wall_front(position: Position) -> None:
    state = position(marbles={"red": [5], "blue": [20, 21]}, hands={"red": ["5"]}, rules="online", teams=False)
    assert why_illegal(state, walk("5", BLUE2, 5)).why is Why.WALL_PROTECTED


def test_on10_the_jack_never_swaps_with_a_partner(position: Position) -> None:
    state = position(marbles={"red": [10], "green": [30]}, hands={"red": ["J", "2"]}, rules="online")
    assert why_illegal(state, Move("J", MoveKind.SWAP, RED1, 0, GREEN1)).why is Why.SWAP_PARTNER


def test_ka4_on3_the_burning_rules_are_named(position: Position) -> None:
    karooty = position(hands={"red": ["2", "3"]}, rules="karooty")
    assert why_illegal(karooty, Move(NO_CARD, MoveKind.BURN_HAND)).why is Why.BURN_ONE_CARD_RULE
    online = position(marbles={"red": [17], "blue": [19]}, hands={"red": ["2", "3"]}, rules="online")
    assert why_illegal(online, Move("2", MoveKind.BURN)).why is Why.BURN_HAND_RULE


def test_on11_time_out_is_never_a_move(position: Position) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["2"]}, rules="online")
    assert why_illegal(state, Move(NO_CARD, MoveKind.TIME_OUT)).why is Why.TIMER_ONLY


def _random_positions(count: int) -> Iterator[GameState]:
    rng = random.Random(8)
    tables = (("karooty", 4, True), ("online", 4, True), ("online", 2, False), ("online", 4, False))
    for index in range(count):
        name, players, teams = tables[index % len(tables)]
        state, _ = new_game(make_rules(players, teams, rule_set=name), seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(10, 160)):
            if state.winner is not None:
                break
            state, _ = play(state, rng.choice(legal_moves(state)))
        yield state


@pytest.mark.parametrize("chunk", range(2))
def test_every_illegal_move_of_random_house_positions_gets_a_named_reason(chunk: int) -> None:
    explained = 0
    for index, state in enumerate(_random_positions(120)):
        if index % 2 != chunk:
            continue
        legal = set(legal_moves(state))
        for move in _plain_moves(state):
            if move in legal:
                continue
            reason = why_illegal(state, move)
            assert reason.why is not Why.OTHER, (state.rules.rule_set, move.phrase, state.marbles)
            explained += 1
    assert explained > 300
