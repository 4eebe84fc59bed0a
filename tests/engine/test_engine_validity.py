"""check_state: the invariants of a valid table, one message per broken invariant (engine/validity.py)."""

from __future__ import annotations

import random

import pytest

from voicejack.engine import InvalidStateError, apply_move, check_state, legal_moves, make_rules, new_game
from voicejack.engine import validity
from voicejack.engine.board import SAFE_OFFSET, marble_id

ALL_IN = ["safe 1", "safe 2", "safe 3", "safe 4"]


def refused(state) -> str:
    with pytest.raises(InvalidStateError) as caught:
        check_state(state)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_a_fresh_match_and_random_play_are_valid() -> None:
    for players, teams in ((2, False), (4, True), (4, False)):
        state, _ = new_game(make_rules(players, teams, "complex"), seed=players)
        chooser = random.Random(1)
        while state.winner is None:
            check_state(state)
            apply_move(state, chooser.choice(legal_moves(state)))
        check_state(state)


def test_two_marbles_on_one_cell(position) -> None:
    state = position(marbles={"red": [12]})
    state.marbles[marble_id("blue", 1)] = 12
    assert refused(state) == "'marbles' blue 1 and red 1 are both on cell 12"


def test_two_marbles_of_a_colour_on_one_safe_place(position) -> None:
    state = position(marbles={"red": ["safe 2"]})
    state.marbles[marble_id("red", 3)] = SAFE_OFFSET + 2
    assert refused(state) == "'marbles' red 3 and red 1 are both on safe 2"


def test_a_marble_of_a_colour_not_at_the_table(position) -> None:
    state = position(players=2, teams=False)
    state.marbles[marble_id("blue", 1)] = 30
    assert "blue has no seat" in refused(state)


def test_board_and_marble_list_disagree(position) -> None:
    state = position(marbles={"red": [12]})
    state.board[13] = marble_id("red", 1)
    assert "the board" in refused(state)


def test_cards_are_the_52_card_deck(position) -> None:
    state = position(hands={"red": ["K"]})
    state.pile.append("K")
    assert refused(state) == "more than four cards of rank \"K\" among the hands, pile and discard"
    state.pile.remove("K")
    state.pile.remove("2")
    assert refused(state) == "hands + 'pile' + 'discard' hold 51 cards, not the 52-card deck"
    state.pile.append("joker")
    assert refused(state) == "'pile': 'joker' is not a card"


def test_the_player_to_act_holds_cards(position) -> None:
    """R12: a player with an empty hand is skipped."""
    state = position(hands={"red": ["2"], "blue": ["2"]})
    state.pile.append(state.hands["red"].pop())
    assert refused(state) == "'turn' is red, whose hand is empty while another player holds cards"


def test_forced_burn_needs_cards(position) -> None:
    state = position(hands={"red": ["2"]}, forced_burn=True, mode="complex")
    state.pile.append(state.hands["red"].pop())
    assert refused(state) == "'forced_burn' is set on red, who holds no cards"


def test_the_winner_is_what_the_marbles_show(position) -> None:
    """R37: the winner is set exactly when a side has all its marbles in, and only that side."""
    state = position()
    state.winner = ("red", "green")
    assert "no side has all its marbles in" in refused(state)
    won = position(marbles={"red": ALL_IN, "green": ALL_IN}, winner=("red", "green"))
    check_state(won)
    won.winner = None
    assert refused(won) == "the marbles show red+green won, but no 'winner' is set"
    won.winner = ("blue", "yellow")
    assert "the marbles show red+green won" in refused(won)


def test_a_won_match_is_exempt_from_the_turn_checks(position) -> None:
    state = position(marbles={"red": ALL_IN}, teams=False, hands={"red": []}, winner=("red",))
    check_state(state)


def test_the_four_player_deal_cycle(position) -> None:
    """R9: 4 players deal 4, 4 and 5 cards, so the deal index is 0, 1 or 2."""
    state = position(deal_index=2)
    check_state(state)
    state.deal_index = 3
    assert refused(state) == "'deal' must be a whole number from 0 to 2"


def test_debug_checks_follow_every_move(position) -> None:
    """With the engine's debug checks on (these tests' default), a move that corrupts the state is caught."""
    assert validity.debug_checks
    state = position(marbles={"red": [10]}, hands={"red": ["9"]})
    state.pile.pop()  # a card goes missing before the move
    with pytest.raises(InvalidStateError, match="51 cards"):
        apply_move(state, legal_moves(state)[0])
