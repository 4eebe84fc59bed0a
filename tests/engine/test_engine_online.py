"""The Jackaroo Online rule set (shared/spec/variants.md, ON1-ON12): one test per rule, from small positions."""

from __future__ import annotations

import pytest

from voicejack.engine import IllegalMoveError, find_move, legal_moves, legal_phrases, make_rules, marble_id, new_game
from voicejack.engine import events as ev
from voicejack.engine.moves import MoveKind
from voicejack.engine.rules import time_out

from tests.engine.rule_set_helpers import board, next_draw

RED1, RED2 = marble_id("red", 1), marble_id("red", 2)
BLUE1, BLUE2 = marble_id("blue", 1), marble_id("blue", 2)
ONLINE = {"rules": "online"}
ALL_HOME = ["home"] * 4
NO_HANDS = {"blue": [], "green": [], "yellow": []}


def test_on1_every_table_kind_in_seat_order_one_version() -> None:
    for players, teams in ((2, False), (4, True), (4, False)):
        rules = make_rules(players, teams, rule_set="online")
        assert rules.order == rules.seats
    with pytest.raises(ValueError, match="one version"):
        make_rules(4, True, "complex", rule_set="online")


def test_on2_four_cards_every_deal_and_the_dealer_moves_every_deal(position, apply_phrase) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["2"], **NO_HANDS}, dealer="red", **ONLINE)
    after, events = apply_phrase(state, "play two red one")
    assert [e for e in events if isinstance(e, ev.Dealt)] == [ev.Dealt("blue", 0, 4, "green", 51 - 16)]
    assert not any(isinstance(e, ev.Reshuffled) for e in events)
    assert after.dealer == "blue" and after.deal_index == 0 and after.turn == "green"
    assert all(len(hand) == 4 for hand in after.hands.values())


def test_on2_a_short_pile_is_reshuffled_and_the_dealer_still_moves_one_seat(position, apply_phrase) -> None:
    from voicejack.engine.cards import full_deck

    deck = full_deck()
    deck.remove("2")
    state = position(marbles={"red": [10]}, hands={"red": ["2"], **NO_HANDS}, dealer="red", discard=deck[:40],
                     **ONLINE)
    assert len(state.pile) == 11
    after, events = apply_phrase(state, "play two red one")
    assert ev.Reshuffled("blue", 52) in events and after.dealer == "blue"
    assert len(after.pile) == 52 - 16 and after.discard == []
    two, _ = new_game(make_rules(2, False, rule_set="online"), seed=1)
    assert all(len(hand) == 4 for hand in two.hands.values())


def test_on3_no_move_burns_the_whole_hand_with_marbles_on_the_track(position, apply_phrase) -> None:
    state = position(marbles={"red": [17], "blue": [19]}, hands={"red": ["2", "3"]}, **ONLINE)
    assert legal_phrases(state) == ["burn hand"]
    after, events = apply_phrase(state, "burn hand")
    assert ev.HandBurned("red", ("2", "3")) in events and after.hands["red"] == [] and after.turn == "blue"
    voicejack = position(marbles={"red": [17], "blue": [19]}, hands={"red": ["2", "3"]})
    assert legal_phrases(voicejack) == ["burn three", "burn two"]  # R29, for contrast


def test_on4_any_marble_is_passed_and_landed_on_but_one_on_its_base(position, apply_phrase) -> None:
    state = position(marbles={"red": [10, 12], "blue": [19]}, hands={"red": ["2", "4", "8", "9"]}, **ONLINE)
    assert legal_phrases(state) == ["play eight red one", "play four red one", "play four red two",
                                    "play two red one", "play two red two"]
    after, _ = apply_phrase(state, "play two red one")  # lands on red 2: own colour captured (R26)
    assert board(after) == {"red": [12, "home", "home", "home"], "blue": [19, "home", "home", "home"],
                            "green": ALL_HOME, "yellow": ALL_HOME}


def test_on5_walls_of_one_colour(position, apply_phrase) -> None:
    """ON5: blue 2 before blue 1 is a wall front; yellow behind green is none. The 5 follows ON8."""
    marbles = {"red": [15, 25], "blue": [20, 21], "yellow": [30], "green": [31]}
    state = position(marbles=marbles, hands={"red": ["5", "6", "8"]}, teams=False, **ONLINE)
    assert legal_phrases(state) == ["play eight red two", "play five blue one", "play five green one",
                                    "play five red one", "play five red two", "play five yellow one",
                                    "play six red two"]
    after, _ = apply_phrase(state, "play five red one")  # the back of the wall is unprotected
    assert board(after) == {"red": [20, 25, "home", "home"], "blue": ["home", 21, "home", "home"],
                            "green": [31, "home", "home", "home"], "yellow": [30, "home", "home", "home"]}


def test_on5_a_wall_does_not_stop_its_own_colour_and_guards_a_base(position) -> None:
    own = position(marbles={"blue": [40, 41, 35]}, hands={"blue": ["8"]}, turn="blue", teams=False, **ONLINE)
    assert legal_phrases(own) == ["play eight blue one", "play eight blue three", "play eight blue two"]
    guarded = position(marbles={"yellow": [0, 75]}, hands={"red": ["K"]}, teams=False, **ONLINE)
    assert legal_phrases(guarded) == ["burn hand"]
    mixed = position(marbles={"yellow": [0], "blue": [75]}, hands={"red": ["K"]}, teams=False, **ONLINE)
    assert legal_phrases(mixed) == ["play king out"]


def test_on6_each_part_of_a_seven_is_judged_after_the_one_before(position, apply_phrase) -> None:
    state = position(marbles={"red": [16, 18], "blue": [20, 21]}, hands={"red": ["7"]}, teams=False, **ONLINE)
    phrases = legal_phrases(state)
    assert "play seven red one four red two three" in phrases      # red 1 takes blue 1, then blue 2 stands alone
    assert "play seven red two three red one four" not in phrases  # blue 2 is still a wall front
    after, _ = apply_phrase(state, "play seven red one four red two three")
    assert board(after) == {"red": [20, 21, "home", "home"], "blue": ALL_HOME, "green": ALL_HOME, "yellow": ALL_HOME}


def test_on7_the_king_sends_home_all_it_passes_wall_fronts_included(position, apply_phrase) -> None:
    state = position(marbles={"red": [10, 12], "blue": [14, 15]}, hands={"red": ["K"]}, **ONLINE)
    assert legal_phrases(state) == ["play king out", "play king red one", "play king red two"]
    after, _ = apply_phrase(state, "play king red one")
    assert board(after) == {"red": [23, "home", "home", "home"], "blue": ALL_HOME, "green": ALL_HOME,
                            "yellow": ALL_HOME}
    assert legal_phrases(position(marbles={"red": [10], "blue": [19]}, hands={"red": ["K"]}, **ONLINE)) == [
        "play king out"]


def test_on8_the_five_moves_any_track_marble_by_its_colours_rules(position, apply_phrase) -> None:
    """ON8: the partner into its safe zone, never an opponent; not another colour's wall front or base."""
    marbles = {"red": [10, 0], "green": [35], "blue": [16], "yellow": [57, 40, 39]}
    state = position(marbles=marbles, hands={"red": ["5"]}, **ONLINE)
    assert legal_phrases(state) == ["play five green one", "play five red one", "play five red two",
                                    "play five yellow three"]
    after, _ = apply_phrase(state, "play five green one")
    assert board(after)["green"] == ["safe 3", "home", "home", "home"]
    after, _ = apply_phrase(state, "play five yellow three")  # passes its own colour's wall
    assert board(after)["yellow"] == [57, 40, 44, "home"]


def test_on9_the_ten_burns_a_random_card_of_the_next_opponent_who_keeps_the_turn(position, apply_phrase) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["10"], "blue": [], "green": ["2", "3"],
                                                   "yellow": ["4", "5", "6"]}, **ONLINE)
    assert legal_phrases(state) == ["play ten burn", "play ten red one"]
    burned = next_draw(state, ["4", "5", "6"])
    after, events = apply_phrase(state, "play ten burn")
    assert ev.RandomBurn("red", "yellow", burned, False) in events
    assert len(after.hands["yellow"]) == 2 and after.discard[-2:] == ["10", burned]
    assert after.turn == "green"  # blue holds nothing; yellow does not lose the turn
    no_opponent = position(marbles={"red": [10]}, hands={"red": ["10"], "blue": [], "green": ["2"], "yellow": []},
                           **ONLINE)
    assert legal_phrases(no_opponent) == ["play ten red one"]


def test_on10_the_jack_swaps_only_with_an_unprotected_opponent(position, apply_phrase) -> None:
    state = position(marbles={"red": [10], "green": [30], "blue": [20, 21], "yellow": [57, 45]},
                     hands={"red": ["J"]}, **ONLINE)
    assert legal_phrases(state) == ["play jack red one blue one", "play jack red one yellow two"]
    after, _ = apply_phrase(state, "play jack red one yellow two")
    assert board(after)["red"][0] == 45 and board(after)["yellow"] == [57, 10, "home", "home"]


def test_on11_time_out_burns_a_random_card_and_passes_the_turn(position) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["2", "3", "Q"]}, **ONLINE)
    assert all(move.kind is not MoveKind.TIME_OUT for move in legal_moves(state))
    with pytest.raises(IllegalMoveError):
        find_move(state, "time out")
    burned = next_draw(state, ["2", "3", "Q"])
    events = time_out(state)
    assert events[0] == ev.TimedOut("red", burned) and state.turn == "blue"
    assert len(state.hands["red"]) == 2 and state.discard[-1] == burned
    assert state.history[-1][1].phrase == "time out"
    assert state.last_card is not None and (state.last_card.card, state.last_card.phrase) == (burned, "time out")
    assert make_rules(4, True, rule_set="online").timer_seconds == 40
    assert make_rules(4, True, rule_set="online", turn_seconds=0).timer_seconds == 0
    assert make_rules(4, True).timer_seconds == 0


def test_on12_team_play_is_won_by_all_eight_marbles(position, apply_phrase) -> None:
    state = position(marbles={"red": ["safe 1", "safe 2", "safe 3", "safe 4"], "green": ["safe 2", "safe 3", "safe 4", 36]},
                     hands={"red": ["2"]}, **ONLINE)
    after, events = apply_phrase(state, "play two green four")
    assert ev.Won(("red", "green")) in events and after.winner == ("red", "green")
