"""why_illegal: the first rule an illegal move breaks, with the marbles and cells involved (rules.md R12-R38)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from voicejack.engine import GameState, Move, MoveKind, legal_moves, make_rules, new_game, play
from voicejack.engine.board import COLOURS, SAFE_OFFSET
from voicejack.engine.cards import ACE_STEPS, WALK_VALUES
from voicejack.engine.moves import NO_MARBLE
from voicejack.engine.why import IllegalReason, Why, why_illegal

Position = Callable[..., GameState]
RED1, RED2, RED3 = 0, 1, 2
BLUE1, BLUE2 = 4, 5
GREEN1 = 8


def walk(card: str, marble: int, steps: int) -> Move:
    return Move(card, MoveKind.WALK, marble, steps)


def test_a_legal_move_has_no_reason(position: Position) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["9"]})
    with pytest.raises(ValueError, match="is legal"):
        why_illegal(state, walk("9", RED1, 9))


def test_r22_the_seven_cannot_walk_over_an_own_marble(position: Position) -> None:
    state = position(marbles={"red": [12, 8]}, hands={"red": ["7"]})
    assert why_illegal(state, walk("7", RED2, 7)) == IllegalReason(
        Why.PASSES_OWN, "7", RED2, 7, blocker=RED1, position=12)


def test_r22_landing_on_an_own_marble_is_allowed_so_the_next_one_is_the_problem(position: Position) -> None:
    # Red 2 on 5 may land on red 1 on 12 with a 7, but not walk over it with a 9.
    state = position(marbles={"red": [12, 5]}, hands={"red": ["9"]})
    assert why_illegal(state, walk("9", RED2, 9)).why is Why.PASSES_OWN


def test_r22_backwards_over_an_own_marble(position: Position) -> None:
    state = position(marbles={"red": [20, 18]}, hands={"red": ["4"]})
    assert why_illegal(state, walk("4", RED1, 4)) == IllegalReason(
        Why.PASSES_OWN, "4", RED1, 4, blocker=RED2, position=18)


def test_r23_a_marble_on_its_own_base_blocks(position: Position) -> None:
    state = position(marbles={"red": [15], "blue": [19]}, hands={"red": ["9", "K"]})
    assert why_illegal(state, walk("9", RED1, 9)) == IllegalReason(
        Why.BASE_BLOCKS, "9", RED1, 9, blocker=BLUE1, position=19)


def test_r24_a_wall_blocks_and_both_of_its_marbles_are_named(position: Position) -> None:
    state = position(marbles={"red": [30], "blue": [31, 32]}, hands={"red": ["Q", "K"]})
    assert why_illegal(state, walk("Q", RED1, 12)) == IllegalReason(
        Why.WALL, "Q", RED1, 12, blocker=BLUE2, position=32, second=BLUE1)


def test_r21_past_the_end_of_the_safe_zone(position: Position) -> None:
    state = position(marbles={"red": [70]}, hands={"red": ["Q", "K"]}, teams=False)
    reason = why_illegal(state, walk("Q", RED1, 12))
    assert (reason.why, reason.left) == (Why.OVERSHOOTS, 9)


def test_r25_an_own_marble_in_the_safe_zone_is_in_the_way(position: Position) -> None:
    state = position(marbles={"red": ["safe 2", 73]}, hands={"red": ["6", "K"]}, teams=False)
    assert why_illegal(state, walk("6", RED2, 6)) == IllegalReason(
        Why.PASSES_OWN, "6", RED2, 6, blocker=RED1, position=SAFE_OFFSET + 2)


def test_r20_marbles_at_home_and_the_base(position: Position) -> None:
    state = position(marbles={"red": [0]}, hands={"red": ["K", "9"]})
    assert why_illegal(state, walk("9", RED2, 9)) == IllegalReason(Why.AT_HOME, "9", RED2)
    assert why_illegal(state, Move("K", MoveKind.OUT)) == IllegalReason(
        Why.OWN_ON_BASE, "K", blocker=RED1, position=0)
    all_out = position(marbles={"red": [3, 20, 40, 60]}, hands={"red": ["A"]}, teams=False)
    assert why_illegal(all_out, Move("A", MoveKind.OUT)).why is Why.NONE_AT_HOME


def test_r20_r24_a_guarded_marble_on_the_base(position: Position) -> None:
    state = position(marbles={"red": [40], "blue": [75, 0]}, hands={"red": ["A"]}, teams=False)
    assert why_illegal(state, Move("A", MoveKind.OUT)) == IllegalReason(
        Why.BASE_GUARDED, "A", blocker=BLUE2, position=0, second=BLUE1)


def test_r19_only_the_movers_marbles_and_the_card_in_hand(position: Position) -> None:
    state = position(marbles={"red": [10], "blue": [25]}, hands={"red": ["9"]})
    assert why_illegal(state, walk("9", BLUE1, 9)) == IllegalReason(Why.NOT_YOURS, "9", BLUE1, colour="red")
    assert why_illegal(state, walk("Q", RED1, 12)) == IllegalReason(Why.NO_CARD, "Q")
    assert why_illegal(state, walk("9", RED1, 4)).why is Why.NOT_THIS_CARD


def test_r12_r38_turn_and_a_won_match(position: Position) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["9"]})
    assert why_illegal(state, walk("9", RED1, 9), seat="blue") == IllegalReason(Why.NOT_YOUR_TURN, "9", colour="red")
    won = position(marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"]}, hands={"red": ["9"]},
                   teams=False, winner=("red",))
    assert why_illegal(won, walk("9", RED1, 9)).why is Why.GAME_OVER


def test_r28_r30_burning(position: Position) -> None:
    movable = position(marbles={"red": [10]}, hands={"red": ["9"]})
    assert why_illegal(movable, Move("9", MoveKind.BURN)).why is Why.CANNOT_BURN
    stuck = position(marbles={"red": [17], "blue": [19]}, hands={"red": ["2", "9"]})
    assert why_illegal(stuck, walk("9", RED1, 9)).why is Why.MUST_BURN
    assert why_illegal(stuck, Move("9", MoveKind.BURN_HAND)).why is Why.BURN_ONE_CARD
    nothing_out = position(hands={"red": ["2", "9"]})
    assert why_illegal(nothing_out, Move("9", MoveKind.BURN)).why is Why.MUST_BURN_HAND


def test_r35_a_forced_burn_comes_first(position: Position) -> None:
    state = position(marbles={"blue": [40]}, hands={"blue": ["3", "8"]}, turn="blue", mode="complex", forced_burn=True)
    assert why_illegal(state, walk("3", BLUE1, 3)).why is Why.MUST_BURN_FORCED


def test_r17_the_second_part_is_judged_after_the_first(position: Position) -> None:
    # Red 1 walks 2 from 8 onto red 2 on 10 and sends it home: then red 2 has no 5 steps to walk.
    state = position(marbles={"red": [8, 10]}, hands={"red": ["7"]})
    split = Move("7", MoveKind.SPLIT, RED1, 2, RED2, 5)
    assert why_illegal(state, split) == IllegalReason(Why.AT_HOME, "7", RED2, 5, part=2)
    blocked_first = Move("7", MoveKind.SPLIT, RED1, 4, RED2, 3)
    assert why_illegal(state, blocked_first) == IllegalReason(Why.PASSES_OWN, "7", RED1, 4, blocker=RED2, position=10)
    assert why_illegal(state, Move("7", MoveKind.SPLIT, RED1, 4, RED1, 3)).why is Why.SAME_MARBLE
    assert why_illegal(state, Move("7", MoveKind.SPLIT, RED1, 4, RED2, 4)).why is Why.SPLIT_SUM


def test_r17_no_marble_can_take_the_rest(position: Position) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["7"]})
    reason = why_illegal(state, Move("7", MoveKind.SPLIT, RED1, 5, NO_MARBLE, 2))
    assert reason == IllegalReason(Why.NO_MARBLE_FOR_REST, "7", RED1, 5, colour="red")


def test_r18_the_jack(position: Position) -> None:
    state = position(marbles={"red": [10, 30], "blue": [19, 40, "safe 1"], "green": [50]}, hands={"red": ["J"]})
    assert why_illegal(state, Move("J", MoveKind.SWAP, RED1, 0, RED2)).why is Why.SWAP_OWN_COLOUR
    assert why_illegal(state, Move("J", MoveKind.SWAP, RED1, 0, BLUE1)) == IllegalReason(Why.ON_OWN_BASE, "J", BLUE1)
    assert why_illegal(state, Move("J", MoveKind.SWAP, RED1, 0, 6)).why is Why.IN_SAFE_ZONE
    assert why_illegal(state, Move("J", MoveKind.SWAP, RED3, 0, GREEN1)) == IllegalReason(Why.AT_HOME, "J", RED3)
    walled = position(marbles={"red": [10], "blue": [39, 40]}, hands={"red": ["J"]})
    assert why_illegal(walled, Move("J", MoveKind.SWAP, RED1, 0, BLUE2)) == IllegalReason(
        Why.WALL_PROTECTED, "J", BLUE2, blocker=BLUE1, position=40)


def test_r34_the_complex_five_never_delivers_an_opponent(position: Position) -> None:
    state = position(marbles={"red": [10], "blue": [16]}, hands={"red": ["5"]}, mode="complex", teams=False)
    assert why_illegal(state, walk("5", BLUE1, 5)) == IllegalReason(Why.DELIVERS_OPPONENT, "5", BLUE1, 5)


def _random_positions(count: int) -> Iterator[GameState]:
    rng = random.Random(5)
    shapes = ((4, True, "regular"), (4, False, "complex"), (2, False, "regular"))
    for index in range(count):
        players, teams, mode = shapes[index % len(shapes)]
        state, _ = new_game(make_rules(players=players, teams=teams, mode=mode), seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(10, 160)):
            if state.winner is not None:
                break
            state, _ = play(state, rng.choice(legal_moves(state)))
        yield state


def _plain_moves(state: GameState) -> Iterator[Move]:
    """What a player might ask of every card in hand and every marble at the table."""
    for card in set(state.hands[state.turn]):
        for colour in state.rules.seats:
            start = COLOURS.index(colour) * 4
            for marble in range(start, start + 4):
                if card in WALK_VALUES:
                    yield walk(card, marble, WALK_VALUES[card])
                elif card == "A":
                    yield from (walk(card, marble, steps) for steps in ACE_STEPS)
                elif card == "4":
                    yield walk(card, marble, 4)
                elif card == "7":
                    yield walk(card, marble, 7)
                    yield Move("7", MoveKind.SPLIT, marble, 3, (marble + 1) % 16, 4)
                elif card == "J":
                    yield Move("J", MoveKind.SWAP, marble, 0, (marble + 5) % 16)
        if card in ("A", "K"):
            yield Move(card, MoveKind.OUT)


def test_every_illegal_move_of_random_positions_gets_a_named_reason() -> None:
    explained = 0
    for state in _random_positions(90):
        legal = set(legal_moves(state))
        for move in _plain_moves(state):
            if move in legal:
                continue
            reason = why_illegal(state, move)
            assert reason.why is not Why.OTHER, (move.phrase, state.marbles)
            explained += 1
    assert explained > 500
