"""The Karooty rule set (shared/spec/variants.md, KA1-KA13): one test per rule, from small positions."""

from __future__ import annotations

import pytest

from voicejack.engine import legal_phrases, make_rules, marble_id, new_game
from voicejack.engine import events as ev

from tests.engine.rule_set_helpers import board, next_draw

RED1, RED2 = marble_id("red", 1), marble_id("red", 2)
BLUE1 = marble_id("blue", 1)
KAROOTY = {"rules": "karooty"}
ALL_HOME = ["home"] * 4


def test_ka1_karooty_is_four_players_in_teams_only() -> None:
    for players, teams in ((2, False), (4, False)):
        with pytest.raises(ValueError, match="4 players in teams only"):
            make_rules(players, teams, rule_set="karooty")
    with pytest.raises(ValueError, match="one version"):
        make_rules(4, True, "complex", rule_set="karooty")


def test_ka2_turns_go_against_the_marbles(position, apply_phrase) -> None:
    """KA2: red, yellow, green, blue; the player after red is yellow."""
    rules = make_rules(4, True, rule_set="karooty")
    assert [rules.next_seat(c) for c in ("red", "yellow", "green", "blue")] == ["yellow", "green", "blue", "red"]
    state = position(marbles={"red": [10]}, hands={"red": ["2", "3"]}, **KAROOTY)
    after, events = apply_phrase(state, "play two red one")
    assert after.turn == "yellow" and events[-1] == ev.TurnPassed("yellow")


def test_ka3_deals_four_four_five_led_by_the_player_after_the_dealer_in_ka2_order(position, apply_phrase) -> None:
    state, events = new_game(make_rules(4, True, rule_set="karooty"), seed=3)
    assert state.turn == state.rules.next_seat(state.dealer)
    state = position(marbles={"red": [10]}, hands={"red": ["2"], "blue": [], "green": [], "yellow": []},
                     dealer="blue", **KAROOTY)
    after, events = apply_phrase(state, "play two red one")
    dealt = [e for e in events if isinstance(e, ev.Dealt)]
    assert dealt == [ev.Dealt("blue", 1, 4, "red", 51 - 16)]
    assert after.turn == "red" and all(len(hand) == 4 for hand in after.hands.values())
    state = position(marbles={"red": [10]}, hands={"red": ["2"], "blue": [], "green": [], "yellow": []},
                     dealer="blue", deal_index=1, **KAROOTY)
    after, events = apply_phrase(state, "play two red one")
    assert [e for e in events if isinstance(e, ev.Dealt)] == [ev.Dealt("blue", 2, 5, "red", 51 - 20)]


def test_ka4_with_no_move_one_card_is_burned_even_with_nothing_on_the_track(position, apply_phrase) -> None:
    """KA4 replaces R29 and R30: never 'burn hand'."""
    state = position(hands={"red": ["2", "3"]}, **KAROOTY)
    assert legal_phrases(state) == ["burn three", "burn two"]
    after, events = apply_phrase(state, "burn two")
    assert after.hands["red"] == ["3"] and after.discard[-1] == "2"
    assert ev.CardBurned("red", "2", False) in events and after.turn == "yellow"
    voicejack = position(hands={"red": ["2", "3"]})
    assert legal_phrases(voicejack) == ["burn hand"]  # R30, for contrast


def test_ka5_own_marbles_block_nobody_else_does(position, apply_phrase) -> None:
    """KA5: no passing or landing on the own colour; opponents' pairs are no walls."""
    marbles = {"red": [10, 14], "blue": [12, 13]}
    state = position(marbles=marbles, hands={"red": ["3", "4", "6"]}, **KAROOTY)
    assert legal_phrases(state) == ["play four red one", "play six red two", "play three red one", "play three red two"]
    after, _ = apply_phrase(state, "play three red one")  # lands on blue 2, which R24 would protect
    assert board(after) == {"red": [13, 14, "home", "home"], "blue": [12, "home", "home", "home"], "green": ALL_HOME, "yellow": ALL_HOME}
    voicejack = position(marbles=marbles, hands={"red": ["3", "4", "6"]})
    assert legal_phrases(voicejack) == ["play four red one", "play six red two", "play three red two"]  # R24


def test_ka5_a_marble_on_its_own_base_blocks(position) -> None:
    state = position(marbles={"red": [17], "blue": [19]}, hands={"red": ["2", "3", "6"]}, **KAROOTY)
    assert legal_phrases(state) == ["burn six", "burn three", "burn two"]


def test_ka6_the_other_team_on_the_goal_entrance_bars_the_safe_zone(position, apply_phrase) -> None:
    """KA6: blue (other team) on red's entrance, cell 75, bars it; green (partner) does not."""
    state = position(marbles={"red": [70, 30], "blue": [75]}, hands={"red": ["8", "6"]}, **KAROOTY)
    assert legal_phrases(state) == ["play eight red two", "play six red two"]
    state = position(marbles={"red": [70, 30], "green": [75]}, hands={"red": ["8", "6"]}, **KAROOTY)
    assert legal_phrases(state) == ["play eight red one", "play eight red two", "play six red one", "play six red two"]
    after, _ = apply_phrase(state, "play eight red one")
    assert board(after) == {"red": ["safe 3", 30, "home", "home"], "blue": ALL_HOME, "green": [75, "home", "home", "home"],
                            "yellow": ALL_HOME}


def test_ka6_landing_on_the_entrance_captures_and_the_five_passes_an_own_marble_there(position, apply_phrase) -> None:
    state = position(marbles={"red": [73], "blue": [75]}, hands={"red": ["2"]}, **KAROOTY)
    after, _ = apply_phrase(state, "play two red one")
    assert board(after)["red"][0] == 75 and board(after)["blue"] == ALL_HOME
    state = position(marbles={"red": [72, 75]}, hands={"red": ["5", "6"]}, **KAROOTY)
    assert legal_phrases(state) == ["play five red one"]  # the 6 would pass red 2 (KA5); red 2 overshoots
    after, _ = apply_phrase(state, "play five red one")
    assert board(after)["red"] == ["safe 2", 75, "home", "home"]


def test_ka7_safe_zone_exact_count_and_no_passing_in_the_lane(position) -> None:
    state = position(marbles={"red": ["safe 1", "safe 3"]}, hands={"red": ["A", "2", "3"]}, **KAROOTY)
    assert legal_phrases(state) == ["play ace out", "play ace red one one", "play ace red two one"]


def test_ka8_bringing_out_captures_any_other_colour_walls_or_not(position, apply_phrase) -> None:
    """KA8/KA5: blue 1 on red's base with blue 2 behind it is no wall here."""
    state = position(marbles={"blue": [0, 75]}, hands={"red": ["K"]}, **KAROOTY)
    assert legal_phrases(state) == ["play king out"]
    after, events = apply_phrase(state, "play king out")
    assert board(after)["red"] == [0, "home", "home", "home"] and board(after)["blue"] == ["home", 75, "home", "home"]
    assert ev.MarbleCaptured(BLUE1, 0, RED1, "red", "came out") in events
    assert legal_phrases(position(marbles={"blue": [0, 75]}, hands={"red": ["K"]})) == ["burn hand"]  # R24, R30
    own = position(marbles={"red": [0]}, hands={"red": ["A"]}, **KAROOTY)
    assert legal_phrases(own) == ["play ace red one eleven", "play ace red one one"]


def test_ka9_the_plough_sends_home_everything_it_passes_or_lands_on(position, apply_phrase) -> None:
    state = position(marbles={"red": [10, 15], "blue": [12], "green": [18], "yellow": [23]}, hands={"red": ["K"]},
                     **KAROOTY)
    assert legal_phrases(state) == ["play king out", "play king red one", "play king red two"]
    after, events = apply_phrase(state, "play king red one")
    assert board(after) == {"red": [23, "home", "home", "home"], "blue": ALL_HOME, "green": ALL_HOME, "yellow": ALL_HOME}
    assert [e.how for e in events if isinstance(e, ev.MarbleCaptured)] == ["swept", "swept", "swept", "landed"]


def test_ka9_a_marble_on_its_own_base_stops_the_plough_and_the_goal_entrance_does_not(position, apply_phrase) -> None:
    assert legal_phrases(position(marbles={"red": [10], "blue": [19]}, hands={"red": ["K"]}, **KAROOTY)) == [
        "play king out"]
    state = position(marbles={"red": [66], "blue": [75]}, hands={"red": ["K"]}, **KAROOTY)
    assert legal_phrases(state) == ["play king out", "play king red one"]
    after, _ = apply_phrase(state, "play king red one")
    assert board(after)["red"][0] == "safe 4" and board(after)["blue"] == ALL_HOME
    lane = position(marbles={"red": [66, "safe 2"]}, hands={"red": ["K"]}, **KAROOTY)
    assert legal_phrases(lane) == ["play king out"]  # it cannot pass red 2 in the lane


def test_ka10_the_five_moves_any_track_marble(position, apply_phrase) -> None:
    """KA10: own (passing own), partner's into its safe zone, an opponent round again; never one on its base."""
    state = position(marbles={"red": [10, 14], "green": [35], "blue": [16], "yellow": [57]}, hands={"red": ["5"]},
                     **KAROOTY)
    assert legal_phrases(state) == ["play five blue one", "play five green one", "play five red one",
                                    "play five red two"]
    after, _ = apply_phrase(state, "play five blue one")  # blue 1 at progress 73 goes on past its base
    assert board(after)["blue"] == [21, "home", "home", "home"]
    after, _ = apply_phrase(state, "play five green one")
    assert board(after)["green"] == ["safe 3", "home", "home", "home"]
    after, _ = apply_phrase(state, "play five red one")  # passes red 2
    assert board(after)["red"] == [15, 14, "home", "home"]


def test_ka10_the_five_captures_own_and_walks_the_movers_own_off_its_base(position, apply_phrase) -> None:
    state = position(marbles={"red": [10, 15]}, hands={"red": ["5"]}, **KAROOTY)
    after, _ = apply_phrase(state, "play five red one")
    assert board(after)["red"] == [15, "home", "home", "home"]
    state = position(marbles={"red": [0], "green": [38]}, hands={"red": ["5"]}, **KAROOTY)
    assert legal_phrases(state) == ["play five red one"]


def test_ka11_the_ten_makes_the_next_player_lose_a_random_card_and_the_turn(position, apply_phrase) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["10"], "yellow": ["2", "3", "Q"]}, **KAROOTY)
    assert legal_phrases(state) == ["play ten burn", "play ten red one"]
    burned = next_draw(state, ["2", "3", "Q"])
    after, events = apply_phrase(state, "play ten burn")
    assert ev.RandomBurn("red", "yellow", burned, True) in events
    assert sorted(after.hands["yellow"]) == sorted(set(["2", "3", "Q"]) - {burned})
    assert after.discard[-2:] == ["10", burned] and after.turn == "green"
    assert after.history[-1][1].phrase == "play ten burn" and after.last_card is not None
    assert after.last_card.card == "10"


def test_ka11_the_target_is_the_next_holding_cards_and_nobody_means_only_a_walk(position, apply_phrase) -> None:
    state = position(marbles={"red": [10]}, hands={"red": ["10"], "yellow": [], "green": ["4"]}, **KAROOTY)
    after, events = apply_phrase(state, "play ten burn")
    assert ev.RandomBurn("red", "green", "4", True) in events and after.turn == "blue"
    alone = position(marbles={"red": [10]}, hands={"red": ["10"], "blue": [], "green": [], "yellow": []}, **KAROOTY)
    assert legal_phrases(alone) == ["play ten red one"]


def test_ka12_the_jack_swaps_with_partner_or_opponent_and_there_are_no_walls(position, apply_phrase) -> None:
    state = position(marbles={"red": [10, "safe 1"], "blue": [20, 21], "green": [30], "yellow": [57]},
                     hands={"red": ["J"]}, **KAROOTY)
    assert legal_phrases(state) == ["play jack red one blue one", "play jack red one blue two",
                                    "play jack red one green one"]
    after, _ = apply_phrase(state, "play jack red one blue two")
    assert board(after)["red"] == [21, "safe 1", "home", "home"] and board(after)["blue"] == [20, 10, "home", "home"]


def test_ka13_a_finished_player_moves_the_partners_marbles(position, apply_phrase) -> None:
    state = position(marbles={"red": ["safe 2", "safe 3", "safe 4", 73], "green": [30]}, hands={"red": ["7"]},
                     **KAROOTY)
    phrases = legal_phrases(state)
    assert "play seven red four three green one four" in phrases
    after, events = apply_phrase(state, "play seven red four three green one four")
    assert ev.PlayerFinished("red", "green") in events and board(after)["green"][0] == 34
